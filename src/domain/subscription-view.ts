import { effectiveFeatures, type Features, type Plan, type SubscriptionStatus } from './plans.ts';
import type { SubscriptionRow } from '../store/subscriptions.ts';

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
export function toSubscriptionView(row: SubscriptionRow): SubscriptionView {
  return {
    plan: row.status === 'setup' ? null : row.plan,
    status: row.status,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    currentPeriodEnd: row.current_period_end ? row.current_period_end.toISOString() : null,
    bookingsThisMonth: row.bookings_this_month,
    maxBookingsPerMonth: row.max_bookings_per_month,
    maxActiveServices: row.max_active_services,
    maxStaffMembers: row.max_staff_members,
    maxLocations: row.max_locations,
    features: effectiveFeatures(row.plan, row.feature_overrides),
  };
}
