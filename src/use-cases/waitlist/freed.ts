import type { Queryable } from '../../store/db.ts';
import { planJob } from '../../store/jobs.ts';
import { datesBetween, type FreedTime } from './offer.ts';

/** The job that offers time freed outside a booking event (src/jobs/handlers/waitlist.ts). */
export const WAITLIST_MATCH_KIND = 'waitlist.match';

/**
 * Removed time off frees its staff member's days: a match is planned in the removal's
 * transaction, so it runs only if the removal commits, once (its cause names the time off).
 */
export async function planTimeOffFreed(
  tx: Queryable,
  t: {
    timeOffId: string;
    businessId: string;
    locationId: string;
    staffId: string;
    fromDate: string;
    toDate: string;
    startAt: Date;
    endAt: Date;
  },
): Promise<void> {
  const payload: FreedTime = {
    businessId: t.businessId,
    locationId: t.locationId,
    staffId: t.staffId,
    dates: datesBetween(t.fromDate, t.toDate),
    ranges: [{ from: t.startAt.toISOString(), to: t.endAt.toISOString() }],
    cause: `timeoff:${t.timeOffId}`,
  };
  await planJob(tx, { kind: WAITLIST_MATCH_KIND, businessId: t.businessId, payload, dedupeKey: `${WAITLIST_MATCH_KIND}:${payload.cause}` });
}
