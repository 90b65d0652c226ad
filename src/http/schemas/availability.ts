import { Type } from 'typebox';
import { MAX_RANGE_DAYS } from '../../domain/availability/range-limit.ts';
import { DateString, Slug, TimeString } from './common.ts';

export const AvailabilitySearchBody = Type.Object(
  {
    salonSlug: Slug('the business (must match the key)'),
    locationSlug: Slug('a location of the business'),
    serviceId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'one service; exactly one of serviceId and serviceIds' }),
    ),
    serviceIds: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        minItems: 2,
        maxItems: 4,
        description: 'a visit: 2 to 4 services in the order they are performed, back to back; exactly one of serviceId and serviceIds',
      }),
    ),
    staffId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'restricts slots to this staff member (with serviceIds: every part with them)',
      }),
    ),
    dateRange: Type.Object(
      {
        from: DateString('first local date'),
        to: DateString(`last local date, inclusive; at most ${MAX_RANGE_DAYS} days after from`),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const AvailabilitySlot = Type.Object(
  {
    date: DateString(),
    startTime: TimeString(),
    endTime: TimeString(),
    serviceId: Type.String({ description: 'with serviceIds: the first part' }),
    staffId: Type.String({ description: 'with serviceIds: the first part' }),
    visit: Type.Optional(
      Type.Array(Type.Object({ serviceId: Type.String(), staffId: Type.String(), startTime: TimeString(), endTime: TimeString() }), {
        description: "with serviceIds only: the visit's parts back to back, in order (each part's buffers apply)",
      }),
    ),
  },
  { $id: 'AvailabilitySlot', description: 'wall-clock times in the location timezone; with serviceIds a slot is the whole visit' },
);

export const GroupSessionSlot = Type.Object(
  {
    kind: Type.Literal('group'),
    sessionId: Type.String({ description: 'passed back as sessionId when booking' }),
    staffId: Type.String(),
    staffName: Type.Union([Type.String(), Type.Null()]),
    startAtUtc: Type.String({ format: 'date-time' }),
    endAtUtc: Type.String({ format: 'date-time' }),
    capacityMax: Type.Integer(),
    remainingSeats: Type.Integer({ minimum: 1 }),
    priceMinor: Type.Union([Type.Integer(), Type.Null()]),
    slotToken: Type.String({ description: 'signed; valid 10 minutes; passed back as slotToken when booking' }),
  },
  { $id: 'GroupSessionSlot' },
);

// All slots of one response are of one kind, so the union sits on the array: one check per response.
export const AvailabilityResult = Type.Object({
  slots: Type.Union([
    Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'AvailabilitySlot#' })),
    Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'GroupSessionSlot#' })),
  ]),
  snapshotAt: Type.String({ format: 'date-time', description: 'UTC; slots are not reserved' }),
});
