import { monthlyQuotaUsedUp } from '../../store/quota.ts';
import type { Queryable } from '../../store/db.ts';
import { type CacheUse, occupancyRead } from '../read-cache.ts';

/**
 * The business has no bookings left this month (its plan's maxBookingsPerMonth): kept with the
 * busy times, since only a booking write (which moves the occupancy version) changes the count;
 * the UTC month is part of the key, so a new month reads it again.
 */
export function quotaUsedUp(q: Queryable, businessId: string, now: Date, cache?: CacheUse): Promise<boolean> {
  return occupancyRead(
    cache,
    ['quota', businessId, now.toISOString().slice(0, 7)],
    () => monthlyQuotaUsedUp(q, businessId),
    () => 1,
  );
}
