import type { Plan, SubscriptionStatus } from '../domain/plans.ts';
import type { SubscriptionRecord } from '../domain/subscription.ts';
import type { Queryable } from './db.ts';
import { BOOKINGS_THIS_MONTH_SQL } from './quota.ts';

interface SubscriptionRow {
  business_id: string;
  plan: Plan | null;
  status: SubscriptionStatus;
  cancel_at_period_end: boolean;
  current_period_end: Date | null;
  max_bookings_per_month: number | null;
  max_active_services: number | null;
  max_staff_members: number | null;
  max_locations: number | null;
  feature_overrides: Record<string, unknown>;
  bookings_this_month: number;
}

const COLUMNS = `business_id, plan, status, cancel_at_period_end, current_period_end, max_bookings_per_month,
  max_active_services, max_staff_members, max_locations, feature_overrides,
  ${BOOKINGS_THIS_MONTH_SQL} AS bookings_this_month`;

function toSubscription(r: SubscriptionRow): SubscriptionRecord {
  return {
    businessId: r.business_id,
    plan: r.plan,
    status: r.status,
    cancelAtPeriodEnd: r.cancel_at_period_end,
    currentPeriodEnd: r.current_period_end,
    maxBookingsPerMonth: r.max_bookings_per_month,
    maxActiveServices: r.max_active_services,
    maxStaffMembers: r.max_staff_members,
    maxLocations: r.max_locations,
    featureOverrides: r.feature_overrides,
    bookingsThisMonth: r.bookings_this_month,
  };
}

export async function getSubscription(q: Queryable, businessId: string): Promise<SubscriptionRecord | undefined> {
  const r = await q.query<SubscriptionRow>(`SELECT ${COLUMNS} FROM subscriptions WHERE business_id = $1`, [businessId]);
  return r.rows[0] ? toSubscription(r.rows[0]) : undefined;
}

/** The subscriptions of `businessIds`, in one query. */
export async function getSubscriptions(q: Queryable, businessIds: readonly string[]): Promise<SubscriptionRecord[]> {
  if (businessIds.length === 0) return [];
  const r = await q.query<SubscriptionRow>(`SELECT ${COLUMNS} FROM subscriptions WHERE business_id = ANY($1::text[])`, [businessIds]);
  return r.rows.map(toSubscription);
}

export interface SubscriptionFields {
  plan?: Plan | null;
  status?: SubscriptionStatus;
  cancelAtPeriodEnd?: boolean;
  currentPeriodEnd?: string | null;
  maxBookingsPerMonth?: number | null;
  maxActiveServices?: number | null;
  maxStaffMembers?: number | null;
  maxLocations?: number | null;
  features?: Partial<Record<string, boolean>>;
}

const FIELD_COLUMNS: Record<Exclude<keyof SubscriptionFields, 'features'>, string> = {
  plan: 'plan',
  status: 'status',
  cancelAtPeriodEnd: 'cancel_at_period_end',
  currentPeriodEnd: 'current_period_end',
  maxBookingsPerMonth: 'max_bookings_per_month',
  maxActiveServices: 'max_active_services',
  maxStaffMembers: 'max_staff_members',
  maxLocations: 'max_locations',
};

export async function insertSubscription(q: Queryable, businessId: string, f: SubscriptionFields): Promise<void> {
  await q.query(
    `INSERT INTO subscriptions (business_id, plan, status, cancel_at_period_end, current_period_end,
        max_bookings_per_month, max_active_services, max_staff_members, max_locations, feature_overrides)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      businessId,
      f.plan ?? null,
      f.status ?? 'setup',
      f.cancelAtPeriodEnd ?? false,
      f.currentPeriodEnd ?? null,
      f.maxBookingsPerMonth ?? null,
      f.maxActiveServices ?? null,
      f.maxStaffMembers ?? null,
      f.maxLocations ?? null,
      JSON.stringify(f.features ?? {}),
    ],
  );
}

/** Updates only the fields given; feature overrides are merged key by key. */
export async function updateSubscription(q: Queryable, businessId: string, f: SubscriptionFields): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [businessId];
  for (const [field, column] of Object.entries(FIELD_COLUMNS)) {
    const v = f[field as keyof typeof FIELD_COLUMNS];
    if (v === undefined) continue;
    params.push(v);
    sets.push(`${column} = $${params.length}`);
  }
  if (f.features !== undefined) {
    params.push(JSON.stringify(f.features));
    sets.push(`feature_overrides = feature_overrides || $${params.length}::jsonb`);
  }
  if (sets.length === 0) return;
  await q.query(`UPDATE subscriptions SET ${sets.join(', ')}, updated_at = now() WHERE business_id = $1`, params);
}
