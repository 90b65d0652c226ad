import { Type } from 'typebox';
import { DateString, Slug, TimeString } from './common.ts';

export const CreateHoldBody = Type.Object(
  {
    salonSlug: Slug('the business (must match the key)'),
    locationSlug: Slug('a location of the business'),
    serviceId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'a standard (not group-session) service; exactly one of serviceId and serviceIds',
      }),
    ),
    serviceIds: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        minItems: 2,
        maxItems: 4,
        description: 'a visit: 2 to 4 services in the order they are performed, held together; exactly one of serviceId and serviceIds',
      }),
    ),
    staffId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'optional: without it a free staff member is chosen, as a create does' }),
    ),
    slot: Type.Object(
      { date: DateString(), startTime: TimeString() },
      { additionalProperties: false, description: 'local date and start time, as availability offers it' },
    ),
  },
  { additionalProperties: false },
);

export const Hold = Type.Object(
  {
    holdId: Type.String({ description: 'pass it as `holdId` to POST /v1/bookings' }),
    expiresAt: Type.String({ format: 'date-time', description: "when the time is free again: now plus the business's holdMinutes" }),
    serviceId: Type.String({ description: "a visit's hold: the first part's" }),
    staffId: Type.String({ description: "the staff member whose time is held (a visit's hold: the first part's)" }),
    serviceIds: Type.Optional(Type.Array(Type.String(), { description: "a visit's hold only: its services in order" })),
    visit: Type.Optional(
      Type.Array(Type.Object({ serviceId: Type.String(), staffId: Type.String(), startTime: TimeString(), endTime: TimeString() }), {
        description: "a visit's hold only: each part's staff member and times, back to back",
      }),
    ),
    slot: Type.Unsafe<Record<string, unknown>>({ $ref: 'SlotTime#' }),
    status: Type.Union([Type.Literal('active'), Type.Literal('released'), Type.Literal('used'), Type.Literal('expired')], {
      description: '`active` while the time is held; `released`, `used` (by a booking) or `expired` once it ended',
    }),
  },
  { $id: 'Hold' },
);

export const HoldResult = Type.Object({ hold: Type.Unsafe<Record<string, unknown>>({ $ref: 'Hold#' }) });
