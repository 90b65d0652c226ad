import { Type } from 'typebox';
import {
  createBusinessBooking,
  decideBooking,
  getBusinessBooking,
  listBusinessBookings,
} from '../../../use-cases/bookings/business-side.ts';
import { checkManualBooking } from '../../../use-cases/bookings/manual-check.ts';
import { MANUAL_WARNINGS } from '../../../domain/bookings/manual-warnings.ts';
import { getOperatorBookingEvents } from '../../../use-cases/bookings/queries.ts';
import { issueManageLink } from '../../../use-cases/guest/manage-link.ts';
import { getAgenda } from '../../../use-cases/bookings/agenda.ts';
import { recordDeposit } from '../../../use-cases/bookings/deposit.ts';
import { cancelVisit } from '../../../use-cases/bookings/visit-cancel.ts';
import { checkedDates } from '../../../domain/bookings/date-filter.ts';
import { BOOKING_STATUSES } from '../../../domain/bookings/states.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { Agenda, BusinessBookingRef } from '../../schemas/booking.ts';
import { DateString, responses, Slug, TimeString } from '../../schemas/common.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';
import { withExample } from '../../openapi-parts.ts';
import {
  DECISION_EXAMPLES,
  agendaExample,
  bookingEventExample,
  businessBookingExample,
  confirmedBusinessBookingExample,
  CURSOR_EXAMPLE,
  depositBookingExample,
  manualBookingExample,
  manualBusinessBookingExample,
} from '../../openapi-examples.ts';

const SlugParams = Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) });
const BookingParams = Type.Object({
  bookingId: Type.String({ minLength: 1, maxLength: 100, description: 'The `bookingId` of the booking.' }),
});
const BookingResult = Type.Object({ booking: BusinessBookingRef });
const ManualWarnings = Type.Array(
  Type.Object(
    {
      code: Type.Enum(MANUAL_WARNINGS, {
        description:
          '`in_the_past`: the time has passed; `closed_day`: the staff member does not work that day; `outside_working_hours`: the service does not fit their hours; `time_off`: it overlaps their time off',
      }),
      message: Type.String({ description: 'the warning in words, in English' }),
    },
    { additionalProperties: false },
  ),
  { description: 'Why the time is odd; empty when it is not. A warning never refuses the booking: the business decides.' },
);
const ManualTimeBody = {
  locationSlug: Slug('a location of the business'),
  serviceId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'with staffId; or `visit` instead' })),
  staffId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'with serviceId; or `visit` instead' })),
  visit: Type.Optional(
    Type.Array(
      Type.Object(
        { serviceId: Type.String({ minLength: 1, maxLength: 100 }), staffId: Type.String({ minLength: 1, maxLength: 100 }) },
        { additionalProperties: false },
      ),
      {
        minItems: 2,
        maxItems: 4,
        description:
          'Added in v1.4.0: a visit of 2 to 4 services in the order they are performed, each with its staff member, instead of serviceId and staffId; the parts are back to back from date and startTime (the buffer after of one and the buffer before of the next between them), all booked or none',
      },
    ),
  ),
  date: DateString(),
  startTime: TimeString(),
};
const NewTime = Type.Object(
  { date: DateString(), startTime: TimeString(), staffId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) },
  { additionalProperties: false },
);

const WithReason = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 500, description: 'shown in operator reads, never sent to integrators' })) },
  { additionalProperties: false },
);

const ACTIONS: Array<{
  path: string;
  action: keyof typeof DECISION_EXAMPLES;
  summary: string;
  description: string;
  withTime?: boolean;
  withReason?: boolean;
}> = [
  {
    path: 'accept',
    action: 'accept',
    summary: 'requested → confirmed (acceptanceMode manual)',
    description: 'Accepts a requested booking of a manual service: it becomes confirmed and `booking.confirmed` is sent.',
  },
  {
    path: 'decline',
    action: 'decline',
    summary: 'requested or rescheduleProposed → declined',
    withReason: true,
    description:
      'Declines a requested booking or a proposal the guest has not accepted; the time is freed. The optional reason is kept for the business only.',
  },
  {
    path: 'propose',
    action: 'propose',
    summary: 'requested or confirmed → rescheduleProposed (the new time is held)',
    withTime: true,
    description:
      'Offers the guest another time (and optionally another staff member); the new time is held until the guest accepts or the booking is declined.',
  },
  {
    path: 'accept-proposal',
    action: 'acceptProposal',
    summary: 'the guest accepts: rescheduleProposed → confirmed',
    description: 'Records that the guest accepted the proposed time: the booking is confirmed at it and the old time is freed.',
  },
  {
    path: 'reschedule',
    action: 'reschedule',
    summary: 'a confirmed booking moves to a new time',
    withTime: true,
    description:
      'Moves a confirmed booking to a new free time (and optionally another staff member) directly; `booking.reschedule_confirmed` is sent.',
  },
  {
    path: 'complete',
    action: 'complete',
    summary: 'confirmed → completed (start time passed)',
    description: 'Marks a confirmed booking whose start has passed as completed.',
  },
  {
    path: 'no-show',
    action: 'noShow',
    summary: 'confirmed → noShow (start time passed)',
    description: 'Marks a confirmed booking whose start has passed as a no-show.',
  },
  {
    path: 'cancel',
    action: 'cancel',
    summary: 'requested, confirmed or rescheduleProposed → cancelled by the business',
    withReason: true,
    description:
      "Cancels a booking on the business's side; the time is freed and `booking.cancelled` is sent. The optional reason is kept for the business only.",
  },
];

export async function operatorBookingRoutes(app: App): Promise<void> {
  app.post(
    '/businesses/:slug/bookings',
    {
      config: operatorAccess(ROLES.everyone, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateManualBooking',
        summary: 'A booking written directly as confirmed (requestedSlot date and time null)',
        description:
          'Writes a booking the business took itself (phone, walk-in) directly as confirmed, in a free slot of the staff member; it has no requested time and sends the same webhooks as any confirmed booking. With `visit` instead of `serviceId` and `staffId` (added in v1.4.0), every part of a visit, back to back, all or none (`data.visit`). An odd time (past, a day the staff member does not work, outside their hours, their time off) is booked all the same and named in `warnings`.',
        params: SlugParams,
        body: withExample(
          Type.Object(
            {
              ...ManualTimeBody,
              guest: Type.Object(
                {
                  name: Type.String({ minLength: 1, maxLength: 100 }),
                  phone: Type.String({ minLength: 1, maxLength: 40 }),
                  email: Type.Optional(Type.String({ description: 'tolerant: an invalid address is dropped, not refused' })),
                },
                { additionalProperties: false },
              ),
              note: Type.Optional(Type.String({ maxLength: 1000 })),
            },
            { additionalProperties: false },
          ),
          manualBookingExample,
        ),
        response: responses(
          200,
          Type.Object({
            booking: BusinessBookingRef,
            warnings: ManualWarnings,
            visit: Type.Optional(
              Type.Object(
                { visitId: Type.String(), bookings: Type.Array(BusinessBookingRef) },
                { description: 'with `visit` in the body: every part, in order (booking is the first)' },
              ),
            ),
          }),
          [...OPERATOR_ERRORS, 'request.not_found', 'catalog.service_not_found', 'catalog.staff_not_found', 'booking.slot_unavailable'],
          {
            description: 'The confirmed booking, and the warnings of its time (`warnings`, added in v1.4.0).',
            example: { booking: manualBusinessBookingExample, warnings: [] },
          },
        ),
      },
    },
    async (request) => {
      const principal = request.principal;
      const by = principal?.kind === 'member' ? { member: principal.session.userId } : { operator: true as const };
      const created = await createBusinessBooking(app.ctx.db, request.params.slug, request.body, by, app.ctx.clock());
      return ok(request, created);
    },
  );

  app.post(
    '/businesses/:slug/bookings/check',
    {
      config: operatorAccess(ROLES.everyone, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCheckManualBooking',
        summary: 'The warnings a manual booking at that time would get, creating nothing',
        description:
          "What the dashboard asks before `Book anyway?`: the same warnings the manual create answers with (a time in the past, a day the staff member does not work, outside their hours, during their time off), for a staff member, service and local time. Nothing is written or held; whether the staff member is free is the create's to say.",
        params: SlugParams,
        body: withExample(Type.Object(ManualTimeBody, { additionalProperties: false }), {
          locationSlug: 'city',
          serviceId: 'svc_4f9a2c7e1b3d5f6a8c0e',
          staffId: 'stf_7c1e9a3b5d2f4e6a8b0c',
          date: '2031-03-09',
          startTime: '10:00',
        }),
        response: responses(
          200,
          Type.Object({ warnings: ManualWarnings }),
          [...OPERATOR_ERRORS, 'request.not_found', 'catalog.service_not_found', 'request.validation_failed'],
          {
            description: 'The warnings; empty when the time is an ordinary one.',
            example: { warnings: [{ code: 'closed_day', message: 'The staff member does not work on this day.' }] },
          },
        ),
      },
    },
    async (request) => {
      const warnings = await checkManualBooking(app.ctx.db, request.params.slug, request.body, app.ctx.clock());
      return ok(request, { warnings });
    },
  );

  app.get(
    '/businesses/:slug/bookings',
    {
      config: operatorAccess(ROLES.everyone, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListBookings',
        summary: 'All bookings of the business, newest created first (same filters as the public list)',
        description:
          "Every booking of the business with guest contact, newest created first, with the public list's filters; page with `meta.cursor`.",
        params: SlugParams,
        querystring: Type.Object({
          status: Type.Optional(Type.Enum(BOOKING_STATUSES, { description: 'only bookings in this state' })),
          locationSlug: Type.Optional(Slug('only this location')),
          from: Type.Optional(DateString('first booking day (local), with `to`')),
          to: Type.Optional(DateString('last booking day (local, inclusive), with `from`')),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'page size' })),
          cursor: Type.Optional(Type.String({ maxLength: 2048, description: 'meta.cursor of the previous page' })),
        }),
        response: responses(
          200,
          Type.Object({ bookings: Type.Array(BusinessBookingRef) }),
          [...OPERATOR_ERRORS, 'request.not_found', 'request.invalid_cursor', 'auth.scope_mismatch'],
          { description: 'One page of bookings.', example: { bookings: [businessBookingExample] }, meta: { cursor: CURSOR_EXAMPLE } },
        ),
      },
    },
    async (request) => {
      const { from, to, ...rest } = request.query;
      const dates = checkedDates(from, to);
      const { bookings, cursor } = await listBusinessBookings(app.ctx.db, app.ctx.serverSecret, request.params.slug, { ...rest, dates });
      return ok(request, { bookings }, cursor ? { cursor } : undefined);
    },
  );

  app.get(
    '/businesses/:slug/agenda',
    {
      config: operatorAccess(ROLES.everyone, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorGetAgenda',
        summary: "One location-local day: each active staff member's hours, time off and bookings (times HH:MM local)",
        description:
          "One local day of one location for the dashboard's calendar: each active staff member's working hours, time off and bookings, times as HH:MM in the location's zone.",
        params: SlugParams,
        querystring: Type.Object({ locationSlug: Slug('the location'), date: DateString('the local day') }),
        response: responses(200, Type.Object({ agenda: Agenda }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The agenda of the day.',
          example: { agenda: agendaExample },
        }),
      },
    },
    async (request) =>
      ok(request, { agenda: await getAgenda(app.ctx.db, request.params.slug, request.query.locationSlug, request.query.date) }),
  );

  app.get(
    '/bookings/:bookingId',
    {
      config: operatorAccess(ROLES.everyone, 'bookingId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorGetBooking',
        summary: 'One booking as the business sees it (guest contact included)',
        description: "One booking as the business sees it: guest phone and email, the business's reason, deposit state.",
        params: BookingParams,
        response: responses(200, BookingResult, [...OPERATOR_ERRORS, 'booking.not_found'], {
          description: 'The booking.',
          example: { booking: confirmedBusinessBookingExample },
        }),
      },
    },
    async (request) => ok(request, { booking: await getBusinessBooking(app.ctx.db, request.params.bookingId) }),
  );

  app.get(
    '/bookings/:bookingId/events',
    {
      config: operatorAccess(ROLES.everyone, 'bookingId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListBookingEvents',
        summary: "The booking's events, oldest first, as the public events endpoint shows them, each with its actor",
        description:
          "The booking's business events, oldest first, exactly as the public events endpoint and the webhooks show them, each with `actor`: who made the change (`guest`, `member`, `operator`, `api`; null on events from before actors were recorded).",
        params: BookingParams,
        response: responses(
          200,
          Type.Object({ events: Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'OperatorBookingEvent#' })) }),
          [...OPERATOR_ERRORS, 'booking.not_found'],
          { description: "The booking's events.", example: { events: [{ ...bookingEventExample, actor: 'guest' }] } },
        ),
      },
    },
    async (request) => ok(request, { events: await getOperatorBookingEvents(app.ctx.db, request.params.bookingId) }),
  );

  app.post(
    '/bookings/:bookingId/manage-link',
    {
      config: operatorAccess(ROLES.everyone, 'bookingId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorNewManageLink',
        summary: "A new manage link for the guest; the booking's previous link opens nothing from now on",
        description:
          "Issues a new manage link (`{PUBLIC_BASE_URL}/manage/{token}`) for the front desk to send to the guest by hand, and ends the booking's previous one: it answers the guest's 404 page from now on. The token is shown only here; only its hash is stored.",
        params: BookingParams,
        response: responses(
          200,
          Type.Object({ manageUrl: Type.String({ format: 'uri', description: 'the guest manage page of the booking' }) }),
          [...OPERATOR_ERRORS, 'booking.not_found'],
          {
            description: 'The new manage link.',
            example: { manageUrl: 'https://book.example.com/manage/q3Vb1Jx0m2kTQ9c5N0Xk1u3aHn8fYp6ZrS4eLwD7gCA' },
          },
        ),
      },
    },
    async (request) => {
      const ctx = { secret: app.ctx.serverSecret, publicBaseUrl: app.ctx.config.publicBaseUrl };
      return ok(request, { manageUrl: await issueManageLink(app.ctx.db, ctx, request.params.bookingId) });
    },
  );

  for (const a of ACTIONS) {
    app.post(
      `/bookings/:bookingId/${a.path}`,
      {
        config: operatorAccess(ROLES.everyone, 'bookingId'),
        // The reason is optional and so is its body: no body reads as {}.
        ...(a.withReason
          ? {
              preValidation: async (request: { body: unknown }) => {
                request.body ??= {};
              },
            }
          : {}),
        schema: {
          ...OPERATOR_SCHEMA,
          operationId: `operatorBooking${a.action[0]!.toUpperCase()}${a.action.slice(1)}`,
          summary: a.summary,
          description: a.description,
          params: BookingParams,
          ...(a.withTime
            ? { body: withExample(NewTime, DECISION_EXAMPLES[a.action].body) }
            : a.withReason
              ? { body: withExample(WithReason, DECISION_EXAMPLES[a.action].body) }
              : {}),
          response: responses(
            200,
            BookingResult,
            [
              ...OPERATOR_ERRORS,
              'booking.not_found',
              'booking.invalid_transition',
              ...(a.withTime ? (['booking.slot_unavailable', 'catalog.staff_not_found'] as const) : []),
            ],
            { description: 'The booking after the decision.', example: { booking: DECISION_EXAMPLES[a.action].answer } },
          ),
        },
      },
      async (request) => {
        const body = request.body as { date: string; startTime: string; staffId?: string; reason?: string } | undefined;
        const booking = await decideBooking(app.ctx.db, {
          businessId: null,
          bookingId: request.params.bookingId,
          action: a.action,
          now: app.ctx.clock(),
          ...(a.withTime && body ? { newTime: body } : {}),
          ...(a.withReason && body?.reason !== undefined ? { reason: body.reason } : {}),
          actor: request.principal?.kind === 'member' ? 'member' : 'operator',
        });
        return ok(request, { booking });
      },
    );
  }

  app.post(
    '/visits/:visitId/cancel',
    {
      config: operatorAccess(ROLES.everyone, 'visitId'),
      preValidation: async (request: { body: unknown }) => {
        request.body ??= {};
      },
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorVisitCancel',
        summary: 'Cancel every part of a visit that still occupies time',
        description:
          'Cancels, in one transaction, each part of a visit (several services booked back to back, `visitId` on each booking) that is requested, confirmed or rescheduleProposed; each part sends its own `booking.cancelled`. Parts that already ended stay as they are. A visit with no part left to cancel is 409 `booking.invalid_transition`. One part alone is cancelled with `POST /admin/v1/bookings/{bookingId}/cancel`. The optional reason is kept for the business only.',
        params: Type.Object({ visitId: Type.String({ minLength: 1, maxLength: 100, description: 'The `visitId` of the visit.' }) }),
        body: withExample(WithReason, DECISION_EXAMPLES.cancel.body),
        response: responses(
          200,
          Type.Object({
            visit: Type.Object({
              visitId: Type.String(),
              bookings: Type.Array(BusinessBookingRef, { description: 'every part in order, as they stand after the cancel' }),
            }),
          }),
          [...OPERATOR_ERRORS, 'booking.not_found', 'booking.invalid_transition'],
          {
            description: 'The visit after the cancel.',
            example: { visit: { visitId: 'vst_8Hq2mZp4Rt6Wx9Ky3Nc5', bookings: [DECISION_EXAMPLES.cancel.answer] } },
          },
        ),
      },
    },
    async (request) => {
      const body = request.body as { reason?: string } | undefined;
      const visit = await cancelVisit(app.ctx.db, {
        visitId: request.params.visitId,
        now: app.ctx.clock(),
        reason: body?.reason,
        actor: request.principal?.kind === 'member' ? 'member' : 'operator',
      });
      return ok(request, { visit });
    },
  );

  app.post(
    '/bookings/:bookingId/deposit',
    {
      config: operatorAccess(ROLES.everyone, 'bookingId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorRecordDeposit',
        summary:
          'Record that the business received the deposit (paid) or lets it go (waived): from pending only; ' +
          'the same status again changes nothing, the other one is 409 booking.invalid_transition, as is a booking without a deposit',
        description:
          'Records the deposit of a deposit booking: `paid` when the business received it, `waived` when it lets it go. Only from pending; the same status again changes nothing.',
        params: BookingParams,
        body: withExample(
          Type.Object(
            { status: Type.Enum(['paid', 'waived'], { description: 'paid: received; waived: nothing is owed any more' }) },
            { additionalProperties: false },
          ),
          { status: 'paid' },
        ),
        response: responses(200, BookingResult, [...OPERATOR_ERRORS, 'booking.not_found', 'booking.invalid_transition'], {
          description: 'The booking with its deposit recorded.',
          example: { booking: depositBookingExample },
        }),
      },
    },
    async (request) =>
      ok(request, { booking: await recordDeposit(app.ctx.db, request.params.bookingId, request.body.status, app.ctx.clock()) }),
  );
}
