/**
 * The soak's own throw-away PostgreSQL database, created from a base URL (DATABASE_URL or the local
 * server) and dropped afterwards, so a run never touches anyone else's data.
 */
import pg from 'pg';

export const DEFAULT_BASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface SoakDatabase {
  name: string;
  url: string;
  /** a client for the invariant checks (opened on demand) */
  pool: pg.Pool;
  drop(): Promise<void>;
}

function withDatabase(base: string, name: string): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Only 127.0.0.1 / localhost / ::1: the soak is a load and kill test and never leaves the machine. */
export function assertLocal(url: string): void {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host)) {
    throw new Error(`the soak runs only against a local PostgreSQL (127.0.0.1), not ${host}`);
  }
}

export async function createSoakDatabase(baseUrl: string): Promise<SoakDatabase> {
  assertLocal(baseUrl);
  const name = `booking_soak_${Date.now().toString(36)}_${process.pid}`;
  const admin = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(`cannot reach PostgreSQL at ${new URL(baseUrl).host}: ${(err as Error).message}`);
  }
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(baseUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  let dropped = false;
  return {
    name,
    url,
    pool,
    async drop() {
      if (dropped) return;
      dropped = true;
      await pool.end().catch(() => undefined);
      const c = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 5_000 });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
