import type { Queryable } from './db.ts';

/**
 * Runs fn inside a savepoint of the caller's transaction: a statement that fails there (a clash on
 * an exclusion constraint) undoes only fn's writes and leaves the transaction usable for the next
 * attempt. The error is rethrown; a deadlock still ends the whole transaction's attempt upstream.
 */
export async function inSavepoint<T>(tx: Queryable, fn: () => Promise<T>): Promise<T> {
  await tx.query('SAVEPOINT attempt');
  try {
    const result = await fn();
    await tx.query('RELEASE SAVEPOINT attempt');
    return result;
  } catch (err) {
    await tx.query('ROLLBACK TO SAVEPOINT attempt');
    throw err;
  }
}
