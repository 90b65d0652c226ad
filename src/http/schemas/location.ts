import { Type } from 'typebox';
import { SLUG_PATTERN } from './operator-business.ts';

/** Digits, spaces, + - ( ), and at least one digit: a number a receptionist writes down as it is dialled. */
export const LOCATION_PHONE_PATTERN = '^[0-9+() -]*[0-9][0-9+() -]*$';

const Address = Type.Object(
  {
    city: Type.String({ minLength: 1, maxLength: 200 }),
    street: Type.String({ minLength: 1, maxLength: 300 }),
    zip: Type.String({ minLength: 1, maxLength: 20 }),
  },
  { additionalProperties: false },
);

const StaffAssignmentSchema = Type.Union([Type.Literal('ordered'), Type.Literal('balanced')], {
  description:
    'who gets a booking or hold asked for without a staff member: `ordered` (default) the first free one in display order (staff `position`, then name); `balanced` the free one with the fewest booked minutes that local day, ties in display order',
});

const locationFields = {
  slug: Type.String({ pattern: SLUG_PATTERN, description: 'lowercase letters, digits and dashes; unique in the business' }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  publicLocationName: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'shown to guests; defaults to name at creation' }),
  ),
  timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Budapest' }),
  address: Address,
  bookingEnabled: Type.Optional(Type.Boolean({ description: 'default true' })),
  slotIntervalMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440, description: 'default 15' })),
  minNoticeMinutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 525_600, description: 'default 60' })),
  horizonDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3660, description: 'default 90' })),
  paymentInstructions: Type.Optional(
    Type.Union([Type.String({ maxLength: 2000 }), Type.Null()], {
      description: 'free text shown to the guest on the deposit payment page (how to pay the deposit); null or absent: none. Default null',
    }),
  ),
  phone: Type.Optional(
    Type.Union([Type.String({ maxLength: 40, pattern: LOCATION_PHONE_PATTERN }), Type.Null()], {
      description:
        "the location's phone number, shown to a guest who can no longer cancel or move online (the manage page): at most 40 characters of digits, spaces, `+`, `-`, `(` and `)`, with at least one digit; null or absent: none. Default null",
    }),
  ),
  staffAssignment: Type.Optional(StaffAssignmentSchema),
};

export const CreateLocationBody = Type.Object(locationFields, { additionalProperties: false });

export const PatchLocationBody = Type.Partial(CreateLocationBody, { additionalProperties: false });

export const LocationParams = Type.Object({
  slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }),
  locationSlug: Type.String({ maxLength: 100, description: 'The slug of the location.' }),
});

export const LocationView = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  name: Type.String(),
  publicLocationName: Type.String(),
  timezone: Type.String(),
  address: Type.Object({ city: Type.String(), street: Type.String(), zip: Type.String() }),
  bookingEnabled: Type.Boolean(),
  slotIntervalMinutes: Type.Integer(),
  minNoticeMinutes: Type.Integer(),
  horizonDays: Type.Integer(),
  paymentInstructions: Type.Union([Type.String(), Type.Null()], { description: 'shown on the deposit payment page' }),
  phone: Type.Union([Type.String(), Type.Null()], { description: 'shown to a guest who can no longer cancel online' }),
  staffAssignment: StaffAssignmentSchema,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

/** The `?locationSlug=` filter of the operator's catalogue lists. */
export const LocationFilter = Type.Object({
  locationSlug: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'only this location; an unknown one is 404' })),
});
