import type { Queryable } from './db.ts';

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
