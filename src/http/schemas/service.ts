import { Type } from 'typebox';
import { ACCEPTANCE_POLICIES, BOOKING_MODES, PRICE_TYPES } from '../../domain/catalog.ts';
import { DepositView, MoneyView, SegmentsView, StaffVariantsView } from './catalog.ts';

const MoneyInput = Type.Object(
  {
    amount: Type.Number({ minimum: 0, maximum: 1_000_000_000, description: 'major currency units' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'must be the business currency' }),
  },
  { additionalProperties: false },
);

const DepositInput = Type.Object(
  {
    required: Type.Boolean(),
    termsVersion: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'required when required is true' })),
    amount: Type.Optional(MoneyInput),
  },
  {
    additionalProperties: false,
    description:
      'a deposit the guest accepts at booking; it owes `amount` (above 0), else the full price, so a negotiable service, or one priced 0, must name an amount',
  },
);

const StaffVariantInput = Type.Object(
  {
    staffId: Type.String({ minLength: 1, maxLength: 100, description: "a staff member (`stf_…`) of the service's location" }),
    durationMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440, description: "omitted: the service's" })),
    price: Type.Optional(MoneyInput),
    segments: Type.Optional(SegmentsView),
  },
  { additionalProperties: false },
);

const StaffVariantsInput = Type.Array(StaffVariantInput, {
  maxItems: 50,
  description:
    "stylist variants: per staff member the duration, price (not for a negotiable service) and segments (they add up to the variant's duration; required when a service with processing time lasts otherwise for that staff member); one per staff member; a given list replaces the stored one, [] removes them. Changes pricingVersion.",
});

const Minutes = (max: number, description?: string) => Type.Integer({ minimum: 0, maximum: max, ...(description ? { description } : {}) });

const serviceFields = {
  locationSlug: Type.String({ minLength: 1, maxLength: 100 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  durationMinutes: Type.Integer({ minimum: 1, maximum: 1440 }),
  priceType: Type.Enum(PRICE_TYPES),
  price: Type.Union([MoneyInput, Type.Null()], { description: 'required for fixed and from; null for negotiable' }),
  requestAcceptancePolicy: Type.Enum(ACCEPTANCE_POLICIES),
  onlineBookable: Type.Optional(Type.Boolean({ description: 'default true' })),
  active: Type.Optional(Type.Boolean({ description: 'default true; counts against maxActiveServices' })),
  onSite: Type.Optional(Type.Boolean({ description: "default false; true: performed at the guest's address" })),
  bookingMode: Type.Optional(Type.Enum(BOOKING_MODES, { description: 'default standard' })),
  bufferBeforeMinutes: Type.Optional(Minutes(1440, 'default 0')),
  bufferAfterMinutes: Type.Optional(Minutes(1440, 'default 0')),
  deposit: Type.Optional(DepositInput),
  segments: Type.Optional(SegmentsView),
  staffVariants: Type.Optional(StaffVariantsInput),
  resourceIds: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 5,
      uniqueItems: true,
      description:
        "the resources (`res_…`) each booking of the service needs one unit of, for its whole length; active resources of the service's location (one it already needs may stay listed after it was made inactive); default none; a given list replaces the stored one",
    }),
  ),
};

export const CreateServiceBody = Type.Object(
  { ...serviceFields, description: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })) },
  { additionalProperties: false },
);

export const PatchServiceBody = Type.Partial(
  Type.Object({
    ...serviceFields,
    locationSlug: Type.String({ minLength: 1, maxLength: 100, description: 'cannot change; accepted when unchanged' }),
    description: Type.Union([Type.String({ minLength: 1, maxLength: 2000 }), Type.Null()], { description: 'null clears it' }),
    segments: Type.Union([SegmentsView, Type.Null()], { description: 'null: one work segment (no processing time)' }),
  }),
  { additionalProperties: false },
);

export const ServiceParams = Type.Object({ serviceId: Type.String({ maxLength: 100, description: 'The id of the service (`svc_…`).' }) });

export const OperatorServiceView = Type.Object({
  id: Type.String(),
  locationId: Type.String(),
  locationSlug: Type.String(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  durationMinutes: Type.Integer(),
  priceType: Type.Enum(PRICE_TYPES),
  price: Type.Union([MoneyView, Type.Null()]),
  pricingVersion: Type.String(),
  requestAcceptancePolicy: Type.Enum(ACCEPTANCE_POLICIES),
  onlineBookable: Type.Boolean(),
  active: Type.Boolean(),
  onSite: Type.Boolean(),
  bookingMode: Type.Enum(BOOKING_MODES),
  bufferBeforeMinutes: Type.Integer(),
  bufferAfterMinutes: Type.Integer(),
  segments: SegmentsView,
  deposit: DepositView,
  resourceIds: Type.Array(Type.String(), { description: 'the resources each booking needs one unit of, sorted by id' }),
  staffVariants: StaffVariantsView,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const CreateSessionBody = Type.Object(
  {
    staffId: Type.String({ minLength: 1, maxLength: 100 }),
    startAtUtc: Type.String({ format: 'date-time' }),
    endAtUtc: Type.String({ format: 'date-time' }),
    capacityMax: Type.Integer({ minimum: 1, maximum: 10_000 }),
    priceMinor: Type.Optional(
      Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'minor units of the business currency' }),
    ),
  },
  { additionalProperties: false },
);

export const SessionView = Type.Object({
  id: Type.String(),
  serviceId: Type.String(),
  staffId: Type.String(),
  startAtUtc: Type.String({ format: 'date-time' }),
  endAtUtc: Type.String({ format: 'date-time' }),
  capacityMax: Type.Integer(),
  seatsTaken: Type.Integer({ description: 'seats held by bookings that occupy the session' }),
  remainingSeats: Type.Integer(),
  priceMinor: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
