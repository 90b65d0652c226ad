/**
 * Database targets for the webhook worker tests. A worker claims every due delivery of its
 * database, whoever queued it, so on PostgreSQL each harness gets a scratch database of its own
 * (created from DATABASE_URL's server, dropped on close): other test files' deliveries are never
 * sent, and these tests' workers and child processes see only their own rows. PGlite is
 * in-memory per harness anyway.
 */
import pg from 'pg';
import type { Db } from '../../src/store/db.ts';
import { migrated } from '../../src/store/migrate.ts';
import { PostgresDb } from '../../src/store/postgres-db.ts';
import { dbTargets, type DbTarget } from './databases.ts';

let counter = 0;

class ScratchPostgresDb extends PostgresDb {
  constructor(
    pool: pg.Pool,
    readonly url: string,
    private readonly drop: () => Promise<void>,
  ) {
    super(pool);
  }
  override async close(): Promise<void> {
    await super.close();
    await this.drop();
  }
}

async function admin<T>(serverUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * A fresh database on the server of `serverUrl`, migrated unless `migrate` is false; `url` is its
 * connection string.
 */
export async function openScratchPostgres(serverUrl: string, opts: { migrate?: boolean } = {}): Promise<ScratchPostgresDb> {
  counter += 1;
  const base = new URL(serverUrl);
  const name = `${base.pathname.slice(1) || 'postgres'}_s${process.pid}_${counter}`.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
  await admin(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = new ScratchPostgresDb(new pg.Pool({ connectionString: url.toString(), max: 10 }), url.toString(), () =>
    admin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  );
  return opts.migrate === false ? db : migrated(db);
}

export function isolatedDbTargets(): DbTarget[] {
  return dbTargets().map((t) =>
    t.name === 'postgres' ? { name: 'postgres', open: (): Promise<Db> => openScratchPostgres(process.env.DATABASE_URL!) } : t,
  );
}
