import type { Config } from '../config.ts';
import type { Db } from './db.ts';
import { migrated } from './migrate.ts';

// Each adapter is loaded only when it is the one in use: a process on PostgreSQL does not load
// PGlite's JavaScript, one on PGlite not the pg client (a few MB of heap and code each; docs/performance.md,
// "Idle memory (issue 16)").
export async function openDb(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolMax' | 'dbPoolTimeoutMs'>): Promise<Db> {
  const db: Db = config.databaseUrl
    ? (await import('./postgres-db.ts')).PostgresDb.open(config.databaseUrl, config.dbPoolMax, config.dbPoolTimeoutMs)
    : await (await import('./pglite-db.ts')).PgliteDb.open(config.dataDir);
  return migrated(db);
}
