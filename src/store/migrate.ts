import type { Db } from './db.ts';
import { MIGRATIONS } from './migrations/index.ts';

// An arbitrary constant: the advisory lock every instance takes while migrating.
const MIGRATION_LOCK = 72_460_118;

/**
 * Applies pending migrations in one transaction under an advisory lock, so several instances
 * starting together migrate once and the others wait, then see nothing left to do.
 */
export async function migrate(db: Db): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
    const applied: string[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.name)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
      applied.push(m.name);
    }
    return applied;
  });
}

/** The database, migrated; closed again when a migration fails, so a failed start holds nothing open. */
export async function migrated<T extends Db>(db: T): Promise<T> {
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}
