import type { Config } from '../config.ts';
import type { Db } from './db.ts';
import { migrated } from './migrate.ts';
import { PgliteDb } from './pglite-db.ts';
import { PostgresDb } from './postgres-db.ts';

export async function openDb(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolMax' | 'dbPoolTimeoutMs'>): Promise<Db> {
  const db: Db = config.databaseUrl
    ? PostgresDb.open(config.databaseUrl, config.dbPoolMax, config.dbPoolTimeoutMs)
    : await PgliteDb.open(config.dataDir);
  return migrated(db);
}
