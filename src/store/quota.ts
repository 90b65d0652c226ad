import type { Queryable } from './db.ts';

/**
 * Counts one booking against the monthly quota, atomically: the row lock of this UPDATE serialises
 * concurrent creates, so at quota − 1 exactly one of two wins. A new UTC month restarts the count.
 * Returns false when the quota is already used up.
 */
export async function takeBookingQuota(q: Queryable, businessId: string): Promise<boolean> {
  const r = await q.query(
    `UPDATE subscriptions
        SET bookings_in_window = CASE WHEN quota_window_start = date_trunc('month', now() AT TIME ZONE 'UTC')::date
                                      THEN bookings_in_window + 1 ELSE 1 END,
            quota_window_start = date_trunc('month', now() AT TIME ZONE 'UTC')::date
      WHERE business_id = $1
        AND (max_bookings_per_month IS NULL
             OR quota_window_start <> date_trunc('month', now() AT TIME ZONE 'UTC')::date
             OR bookings_in_window < max_bookings_per_month)
      RETURNING 1`,
    [businessId],
  );
  return r.rowCount > 0;
}
