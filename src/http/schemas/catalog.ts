import { Type } from 'typebox';
import { ACCEPTANCE_POLICIES, PRICE_TYPES } from '../../domain/catalog.ts';
import { Slug } from './common.ts';

/** Money as the API shows it. Every property is listed so serialization cannot leak other fields. */
export const MoneyView = Type.Object(
  {
    amount: Type.Number({ description: 'major currency units (integer for HUF-like currencies)' }),
    currency: Type.String({ description: "ISO 4217; the salon's currency" }),
  },
  { additionalProperties: false },
);

export const DepositView = Type.Object(
  {
    required: Type.Boolean(),
    termsVersion: Type.Optional(Type.String({ description: 'present when required; sent back in depositTermsAcceptance.termsVersion' })),
    amount: Type.Optional(MoneyView),
  },
  { additionalProperties: false },
);

export const SegmentView = Type.Object(
  {
    kind: Type.Union([Type.Literal('work'), Type.Literal('processing')], {
      description: '`work`: the staff member is busy; `processing`: the staff member is free (colour developing)',
    }),
    minutes: Type.Integer({ minimum: 1, maximum: 1440 }),
  },
  { additionalProperties: false },
);

export const SegmentsView = Type.Array(SegmentView, {
  minItems: 1,
  maxItems: 9,
  description:
    'the parts of the service in order (v1.4.0); they add up to durationMinutes, the first and last are work, no two of one kind are adjacent. One work segment when the service has no processing time.',
});

export const StaffVariantView = Type.Object(
  {
    staffId: Type.String({ description: 'the staff member (`stf_…`) this variant is for' }),
    durationMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440, description: "omitted: the service's" })),
    price: Type.Optional(MoneyView),
    segments: Type.Optional(SegmentsView),
  },
  { additionalProperties: false },
);

export const StaffVariantsView = Type.Array(StaffVariantView, {
  maxItems: 50,
  description:
    "stylist variants (v1.4.0): per staff member the service's duration, price and segments; a field left out is the service's own, and a variant's segments are the service's when it lasts as long. Slots with that staff member carry that endTime; their bookings keep that price.",
});

export const Service = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    durationMinutes: Type.Integer({ minimum: 1 }),
    priceType: Type.Enum(PRICE_TYPES, { description: '`fixed` and `from` have a price; `negotiable` has none' }),
    pricingVersion: Type.String({
      pattern: '^[0-9a-f]{12}$',
      description: 'hash of priceType, price, duration and the staff variants; send it back as expectedPricingVersion',
    }),
    price: Type.Union([MoneyView, Type.Null()]),
    description: Type.Optional(Type.String({ description: 'omitted when not set' })),
    requestAcceptancePolicy: Type.Enum(ACCEPTANCE_POLICIES),
    deposit: DepositView,
    segments: Type.Optional(SegmentsView),
    staffVariants: Type.Optional(StaffVariantsView),
  },
  { $id: 'Service', additionalProperties: false },
);

export const StaffMember = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    bio: Type.Optional(Type.String({ description: 'omitted when not set' })),
    avatarUrl: Type.Optional(Type.String({ format: 'uri', description: 'omitted when not set' })),
  },
  { $id: 'StaffMember', additionalProperties: false },
);

export const LocationScopeQuery = Type.Object({
  salonSlug: Slug("the key's business"),
  locationSlug: Slug('a location of that business'),
});
