import type { Db, Queryable } from './db.ts';
import { isRetryableTxError } from './db-errors.ts';

/**
 * Runs fn in a transaction, and runs it again (at most `attempts` times in all) when the database
 * aborted it as a deadlock victim or a serialization failure. Two concurrent writes that clash on
 * the exclusion constraint can each wait for the other's uncommitted row; PostgreSQL then aborts
 * one of them (40P01). Run again, it sees the winner's committed row and gets its ordinary 409
 * instead of a 500. fn must be safe to repeat: everything it wrote was rolled back.
 */
export async function transactionWithRetry<T>(db: Db, fn: (tx: Queryable) => Promise<T>, attempts = 4): Promise<T> {
  return retryIfDeadlocked(() => db.transaction(fn), attempts);
}

/** The retry of transactionWithRetry for a write that is a single statement (its own transaction). */
export async function retryIfDeadlocked<T>(fn: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= attempts || !isRetryableTxError(err)) throw err;
    }
  }
}
