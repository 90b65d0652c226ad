import { Type } from 'typebox';
import { FEATURE_KEYS, PLANS, SUBSCRIPTION_STATUSES } from '../../domain/plans.ts';
import { SubscriptionView } from './subscription.ts';

export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$';

const nullableCount = Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 1_000_000_000 }), Type.Null()]));

export const SubscriptionInput = Type.Object(
  {
    plan: Type.Optional(Type.Union([Type.Enum(PLANS), Type.Null()])),
    status: Type.Optional(Type.Enum(SUBSCRIPTION_STATUSES)),
    cancelAtPeriodEnd: Type.Optional(Type.Boolean()),
    currentPeriodEnd: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    maxBookingsPerMonth: nullableCount,
    maxActiveServices: nullableCount,
    maxStaffMembers: nullableCount,
    maxLocations: nullableCount,
    features: Type.Optional(
      Type.Object(Object.fromEntries(FEATURE_KEYS.map((k) => [k, Type.Optional(Type.Boolean())])), {
        additionalProperties: false,
        description: "overrides of the plan's default feature flags",
      }),
    ),
  },
  { additionalProperties: false },
);

export const CreateBusinessBody = Type.Object(
  {
    slug: Type.String({ pattern: SLUG_PATTERN, description: 'lowercase letters, digits and dashes' }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' }),
    subscription: Type.Optional(SubscriptionInput),
  },
  { additionalProperties: false },
);

export const BusinessView = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  name: Type.String(),
  currency: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  clientRetentionMonths: Type.Union([Type.Integer(), Type.Null()], {
    description: 'clients with no booking in this many months are erased once a day; null keeps them',
  }),
  subscription: SubscriptionView,
});

export const PatchBusinessBody = Type.Object(
  {
    clientRetentionMonths: Type.Optional(
      Type.Union([Type.Integer({ minimum: 12, maximum: 120 }), Type.Null()], {
        description:
          'erase clients with no booking (start or creation) in this many months, once a day (12 to 120); null keeps clients until a member erases them',
      }),
    ),
  },
  { additionalProperties: false },
);
