import { createHash } from 'node:crypto';
import type { Db, Queryable } from './db.ts';
import { MIGRATIONS } from './migrations/index.ts';

// An arbitrary constant: the advisory lock every instance takes while migrating.
const MIGRATION_LOCK = 72_460_118;

export interface Migration {
  name: string;
  sql: string;
}

/**
 * The database's migrations do not match this server's (docs/operations.md, "Migrations"): one
 * applied here is missing from the code (an older server on a newer database), changed since it
 * was applied, or a new one sorts before one already applied. Nothing is applied then: starting on
 * a schema the code does not describe would fail later, on a guest's request.
 */
export class MigrationMismatchError extends Error {
  constructor(
    readonly reason: 'missing' | 'changed' | 'out_of_order',
    readonly migration: string,
    message: string,
  ) {
    super(message);
    this.name = 'MigrationMismatchError';
  }
}

/** What a migration's text is recorded as: line endings do not count (a checkout on Windows). */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');
}

/**
 * Applies pending migrations in one transaction under an advisory lock, so several instances
 * starting together migrate once and the others wait, then see nothing left to do. Each applied
 * migration's checksum is recorded; before anything is applied, the applied ones must be, in
 * order, the first of `migrations` with the same checksums (as kysely's migrator refuses a
 * missing or unordered migration). A database migrated before checksums were recorded gets its
 * applied migrations' current checksums on the first start (they cannot be checked further back).
 */
export async function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text;`);
    const applied = await appliedMigrations(tx, migrations);
    check(applied, migrations);
    const done = new Set(applied.map((a) => a.name));
    const now: string[] = [];
    for (const m of migrations) {
      if (done.has(m.name)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [m.name, migrationChecksum(m.sql)]);
      now.push(m.name);
    }
    return now;
  });
}

/** The applied migrations in the order they were applied; one recorded without a checksum gets its current one. */
async function appliedMigrations(tx: Queryable, migrations: readonly Migration[]): Promise<Array<{ name: string; checksum: string }>> {
  const rows = (await tx.query<{ name: string; checksum: string | null }>('SELECT name, checksum FROM schema_migrations ORDER BY name'))
    .rows;
  const byName = new Map(migrations.map((m) => [m.name, m]));
  const unrecorded = rows.filter((r) => r.checksum === null && byName.has(r.name));
  if (unrecorded.length > 0) {
    const sums = unrecorded.map((r) => migrationChecksum(byName.get(r.name)!.sql));
    await tx.query(
      `UPDATE schema_migrations s SET checksum = u.checksum FROM unnest($1::text[], $2::text[]) AS u(name, checksum)
        WHERE s.name = u.name AND s.checksum IS NULL`,
      [unrecorded.map((r) => r.name), sums],
    );
    unrecorded.forEach((r, i) => {
      r.checksum = sums[i]!;
    });
  }
  return rows.map((r) => ({ name: r.name, checksum: r.checksum ?? '' }));
}

function check(applied: ReadonlyArray<{ name: string; checksum: string }>, migrations: readonly Migration[]): void {
  const index = new Map(migrations.map((m, i) => [m.name, i]));
  for (const a of applied) {
    const i = index.get(a.name);
    if (i === undefined) {
      throw new MigrationMismatchError(
        'missing',
        a.name,
        `migration ${a.name} was applied to this database but this server does not have it: run the server version that applied it, or a newer one`,
      );
    }
    if (migrationChecksum(migrations[i]!.sql) !== a.checksum) {
      throw new MigrationMismatchError(
        'changed',
        a.name,
        `migration ${a.name} has changed since it was applied to this database: a released migration is never edited; add a new one instead`,
      );
    }
  }
  // Applied ones must be exactly the first of the list: a pending one before an applied one is out of order.
  const appliedNames = new Set(applied.map((a) => a.name));
  const firstPending = migrations.findIndex((m) => !appliedNames.has(m.name));
  if (firstPending === -1) return;
  const later = migrations.slice(firstPending + 1).find((m) => appliedNames.has(m.name));
  if (later) {
    throw new MigrationMismatchError(
      'out_of_order',
      migrations[firstPending]!.name,
      `migration ${migrations[firstPending]!.name} is new but ${later.name}, which comes after it, is already applied: a new migration must come after every applied one`,
    );
  }
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
