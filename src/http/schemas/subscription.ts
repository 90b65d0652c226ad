import { Type } from 'typebox';
import { FEATURE_KEYS, PLANS, SUBSCRIPTION_STATUSES } from '../../domain/plans.ts';

const nullableInt = (description: string) => Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description });

export const SubscriptionView = Type.Object(
  {
    plan: Type.Union([Type.Enum(PLANS), Type.Null()], {
      description: 'null while status is setup; there is no free plan',
    }),
    status: Type.Enum(SUBSCRIPTION_STATUSES),
    cancelAtPeriodEnd: Type.Boolean(),
    currentPeriodEnd: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    bookingsThisMonth: Type.Integer({ description: 'bookings created in the current monthly quota window (UTC calendar month)' }),
    maxBookingsPerMonth: nullableInt('null = unlimited'),
    maxActiveServices: nullableInt('null = unlimited'),
    maxStaffMembers: nullableInt('null = unlimited'),
    maxLocations: nullableInt('null = unlimited'),
    features: Type.Object(Object.fromEntries(FEATURE_KEYS.map((k) => [k, Type.Boolean()])), {
      description: 'all six keys always present',
    }),
  },
  { $id: 'SubscriptionView' },
);
