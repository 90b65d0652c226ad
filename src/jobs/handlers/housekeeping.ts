import type { Logger } from 'pino';
import { purgeOldAuditEntries } from '../../store/audit-log.ts';
import { gatherStatistics } from '../../store/statistics.ts';
import type { Db } from '../../store/db.ts';
import { purgeEndedHolds } from '../../store/holds.ts';
import { purgeExpiredKeys } from '../../store/idempotency.ts';
import { purgeEndedJobs } from '../../store/jobs.ts';
import { purgeOldDeliveries } from '../../store/webhook-outbox.ts';
import { expirePastEntries } from '../../store/waitlist.ts';
import type { JobHandler } from '../handler.ts';

export const HOUSEKEEPING_KIND = 'housekeeping';
const HOUR_MS = 3_600_000;

/**
 * The hourly purge, as one recurring job for all workers (one run an hour, wherever it lands):
 * webhook delivery records a year after their event (final ones only), idempotency records after
 * 24 hours, holds a day after they ended, jobs 30 days after they ended, and audit entries after 12
 * months; waitlist entries past their last date end `expired`; then the planner's statistics are
 * gathered (store/statistics.ts: the embedded database has no autovacuum). Every purge is
 * idempotent, so a run repeated after a crash is harmless.
 */
export function housekeepingHandler(deps: { db: Db; logger?: Logger | undefined }): JobHandler<Record<string, never>> {
  return {
    kind: HOUSEKEEPING_KIND,
    retryDelaysMs: [60_000, 300_000],
    leaseMs: 10 * 60_000,
    everyMs: HOUR_MS,
    parse: () => ({}),
    async run() {
      const deliveries = await purgeOldDeliveries(deps.db);
      const idempotencyRecords = await purgeExpiredKeys(deps.db);
      const holds = await purgeEndedHolds(deps.db);
      const jobs = await purgeEndedJobs(deps.db);
      const waitlistEntries = await expirePastEntries(deps.db);
      const auditEntries = await purgeOldAuditEntries(deps.db);
      await gatherStatistics(deps.db);
      if (deliveries + idempotencyRecords + holds + jobs + waitlistEntries + auditEntries > 0) {
        deps.logger?.info({ deliveries, idempotencyRecords, holds, jobs, waitlistEntries, auditEntries }, 'purged old records');
      }
      return undefined;
    },
  };
}
