import { effectiveFeatures, type Features, type Plan, type SubscriptionStatus } from './plans.ts';
import type { SubscriptionRecord } from './subscription.ts';

export interface SubscriptionView {
  plan: Plan | null;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: string | null;
  bookingsThisMonth: number;
  maxBookingsPerMonth: number | null;
  maxActiveServices: number | null;
  maxStaffMembers: number | null;
  maxLocations: number | null;
  features: Features;
}

/** Payment-provider details and the quota window's reset time stay internal. */
export function toSubscriptionView(sub: SubscriptionRecord): SubscriptionView {
  return {
    plan: sub.status === 'setup' ? null : sub.plan,
    status: sub.status,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    currentPeriodEnd: sub.currentPeriodEnd ? sub.currentPeriodEnd.toISOString() : null,
    bookingsThisMonth: sub.bookingsThisMonth,
    maxBookingsPerMonth: sub.maxBookingsPerMonth,
    maxActiveServices: sub.maxActiveServices,
    maxStaffMembers: sub.maxStaffMembers,
    maxLocations: sub.maxLocations,
    features: effectiveFeatures(sub.plan, sub.featureOverrides),
  };
}
