import type { Db } from '../../store/db.ts';
import { clientsPastRetention } from '../../store/clients.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import { eraseClientIn } from './erase.ts';

/** One run erases at most this many; the rest wait for the next day's run (a first run may find years). */
export const RETENTION_BATCH = 500;

/**
 * The daily retention run (clients-and-reports.md "Retention"): each client past its business's
 * `clientRetentionMonths` is erased as a member's erase would, each in its own transaction (one
 * failure leaves the others erased and is tried again the next day). Answers how many were erased.
 */
export async function eraseExpiredClients(db: Db, now: Date, limit = RETENTION_BATCH): Promise<number> {
  const ids = await clientsPastRetention(db, now, limit);
  let erased = 0;
  for (const clientId of ids) {
    const done = await transactionWithRetry(db, (tx) => eraseClientIn(tx, { clientId, now, actor: 'operator' }));
    if (done) erased += 1;
  }
  return erased;
}
