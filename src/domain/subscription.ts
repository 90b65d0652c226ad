import type { Plan, SubscriptionStatus } from './plans.ts';

/** A business's subscription as the domain sees it; the store maps rows to this. */
export interface SubscriptionRecord {
  businessId: string;
  plan: Plan | null;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  maxBookingsPerMonth: number | null;
  maxActiveServices: number | null;
  maxStaffMembers: number | null;
  maxLocations: number | null;
  featureOverrides: Record<string, unknown>;
  /** bookings counted in the current UTC calendar month */
  bookingsThisMonth: number;
}
