import type { Queryable } from './db.ts';
const MONTH = `date_trunc('month', now() AT TIME ZONE 'UTC')::date`;

/** The current month's count, for the subscription view: the sum of the month's shards. */
export const BOOKINGS_THIS_MONTH_SQL = `(SELECT coalesce(sum(c.bookings), 0)::int FROM booking_quota_counts c
    WHERE c.business_id = subscriptions.business_id AND c.window_start = ${MONTH})`;

/**
 * A CTE `quota` of a booking's write statement that counts the booking against its business's
 * monthly quota ($param is the business id) once the CTE `guard` has a row (the inserted booking).
 * Over the quota, take_booking_quota (migration 004) raises BKQ01 and the whole statement is undone
 * (isQuotaExceeded). Unlimited plans count on the connection's own shard, so concurrent creates do
 * not wait for each other; a limited plan serialises its creates on its subscription row. The one
 * gap, documented in decisions.md: creates already past their check when an operator limits an
 * unlimited plan are counted without it. The statement must select from `quota`, or it does not run.
 */
export function takeQuotaCte(param: number, guard: string): string {
  return `quota AS (SELECT take_booking_quota($${param}) AS counted FROM ${guard})`;
}

/**
 * Whether the business's plan limits its monthly bookings and this month's count has reached the
 * limit: then no create can succeed, so searches offer nothing and explain says `quota_exceeded`.
 */
export async function monthlyQuotaUsedUp(q: Queryable, businessId: string): Promise<boolean> {
  const r = await q.query<{ used_up: boolean }>(
    `SELECT subscriptions.max_bookings_per_month IS NOT NULL
            AND ${BOOKINGS_THIS_MONTH_SQL} >= subscriptions.max_bookings_per_month AS used_up
       FROM subscriptions WHERE subscriptions.business_id = $1`,
    [businessId],
  );
  return r.rows[0]?.used_up ?? false;
}
