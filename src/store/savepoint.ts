import type { Db, Queryable } from './db.ts';
import { isRetryableTxError } from './sql-errors.ts';

let counter = 0;

/**
 * Runs fn under a savepoint: when it throws, only its own writes are undone and the surrounding
 * transaction stays usable (e.g. to try the next staff member after an exclusion violation).
 */
export async function withSavepoint<T>(tx: Queryable, fn: () => Promise<T>): Promise<T> {
  counter = (counter + 1) % 1_000_000;
  const name = `sp_${counter}`;
  await tx.query(`SAVEPOINT ${name}`);
  try {
    const result = await fn();
    await tx.query(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (err) {
    await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
    throw err;
  }
}

/**
 * Runs fn in a transaction, and runs it again (at most `attempts` times in all) when the database
 * aborted it as a deadlock victim or a serialization failure. Two concurrent writes that clash on
 * the exclusion constraint can each wait for the other's uncommitted row; PostgreSQL then aborts
 * one of them (40P01). Run again, it sees the winner's committed row and gets its ordinary 409
 * instead of a 500. fn must be safe to repeat: everything it wrote was rolled back.
 */
export async function transactionWithRetry<T>(db: Db, fn: (tx: Queryable) => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(fn);
    } catch (err) {
      if (attempt >= attempts || !isRetryableTxError(err)) throw err;
    }
  }
}
