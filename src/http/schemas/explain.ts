import { Type } from 'typebox';
import { DateString, Slug, TimeString } from './common.ts';

/** salon-scheduling.md "Explain": each code and what it means, as the OpenAPI document shows them. */
export const EXPLAIN_REASONS = {
  in_the_past: 'the time has passed',
  min_notice: "inside the location's minimum notice",
  beyond_horizon: "past the location's horizon",
  not_on_interval: "not on the location's slot grid (counted from the start of the staff member's working hours)",
  nonexistent_local_time: 'falls in a daylight-saving gap: the clock skips it that day',
  location_booking_disabled: 'the location takes no bookings',
  service_not_bookable_online: 'the service is not bookable online',
  staff_does_not_offer_service: 'the staff member does not perform the service',
  outside_working_hours: "the service (its buffers may reach outside) does not fit the staff member's working hours",
  time_off: "overlaps the staff member's time off (with the service's buffers)",
  booked: "overlaps another booking's time or buffers, or a group session of the staff member (public answers never say whose)",
  held: "overlaps a guest's live hold",
  resource_unavailable: 'no unit of a resource the service needs is free for the whole appointment (`resources` names which)',
  quota_exceeded: 'the business has no bookings left this month',
} as const;

const ExplainReason = Type.Union(
  Object.keys(EXPLAIN_REASONS).map((k) => Type.Literal(k)),
  {
    description: `Why the time is not bookable:\n\n${Object.entries(EXPLAIN_REASONS)
      .map(([k, v]) => `- \`${k}\`: ${v}`)
      .join('\n')}`,
  },
);

const explainFields = {
  serviceId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'one service; exactly one of serviceId and serviceIds' }),
  ),
  serviceIds: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      minItems: 2,
      maxItems: 4,
      description:
        "added in v1.4.0: a visit, 2 to 4 services in the order they are performed; each staff entry is a staff member of the first part, bookable when a visit search of that day offers the time with them first, and its reasons are the first part's or, when that part is free, those of the first later part that does not fit",
    }),
  ),
  staffId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'explain for this staff member only; absent: everyone who performs the service',
    }),
  ),
  date: DateString('local date'),
  startTime: TimeString("local start time, in the location's time zone"),
};

export const PublicExplainBody = Type.Object(
  { salonSlug: Slug('the business (must match the key)'), locationSlug: Slug('a location of the business'), ...explainFields },
  { additionalProperties: false },
);

export const OperatorExplainBody = Type.Object(
  { locationSlug: Slug('a location of the business'), ...explainFields },
  { additionalProperties: false },
);

const staffEntry = {
  staffId: Type.String(),
  staffName: Type.String(),
  bookable: Type.Boolean({ description: 'a search of that day offers this time for this staff member' }),
  reasons: Type.Array(ExplainReason, { description: 'empty when bookable' }),
  resources: Type.Optional(
    Type.Array(Type.Object({ resourceId: Type.String(), name: Type.String() }), {
      description: 'with `resource_unavailable`: the resources of which no unit is free for the whole appointment',
    }),
  ),
};

const explanation = (entry: ReturnType<typeof Type.Object>) =>
  Type.Object({
    explanation: Type.Object({
      bookable: Type.Boolean({ description: 'bookable with at least one staff member' }),
      date: DateString(),
      startTime: TimeString(),
      timezone: Type.String({ description: "the location's IANA time zone" }),
      staff: Type.Array(entry, { description: 'one entry per staff member who could be asked, by name' }),
    }),
  });

export const PublicExplanation = explanation(Type.Object(staffEntry));

export const OperatorExplanation = explanation(
  Type.Object({
    ...staffEntry,
    bookingIds: Type.Array(Type.String(), { description: 'the bookings in the way (`booked`)' }),
    holdIds: Type.Array(Type.String(), { description: 'the live holds in the way (`held`)' }),
  }),
);
