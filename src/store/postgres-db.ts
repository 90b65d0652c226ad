import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, Queryable, QueryResult } from './db.ts';

// Same value shapes as the PGlite adapter: dates as 'YYYY-MM-DD', bigints as numbers.
pg.types.setTypeParser(pg.types.builtins.DATE, (v: string) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));

/**
 * Every parameterised statement is a named prepared statement: each connection parses and plans
 * it once and afterwards only binds and executes it. Parsing and planning were a large share of
 * PostgreSQL's CPU per booking (creates/s +40 %, docs/performance.md). The application sends a
 * small, fixed set of statement texts; the few built from optional fields (operator PATCH) could
 * multiply, so past a bound new texts go unnamed instead of growing every connection's cache.
 */
const MAX_NAMED_STATEMENTS = 500;
const statementNames = new Map<string, string>();
function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `s${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    statementNames.set(sql, name);
  }
  return name;
}

class ClientQueryable implements Queryable {
  constructor(private readonly c: pg.PoolClient | pg.Pool) {}
  async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
    const r =
      params.length === 0
        ? await this.c.query(sql)
        : await this.c.query({ text: sql, values: params as unknown[], name: statementName(sql) });
    return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
  }
  async exec(sql: string): Promise<void> {
    await this.c.query(sql);
  }
}

export class PostgresDb implements Db {
  readonly kind = 'postgres' as const;
  private readonly q: ClientQueryable;

  constructor(readonly pool: pg.Pool) {
    this.q = new ClientQueryable(pool);
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
  }

  static open(connectionString: string, max: number): PostgresDb {
    return new PostgresDb(
      new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 }),
    );
  }

  query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
    return this.q.query<T>(sql, params);
  }

  exec(sql: string): Promise<void> {
    return this.q.exec(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await fn(new ClientQueryable(client));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw err;
    } finally {
      client.release(broken);
    }
  }

  /**
   * LISTEN on a dedicated pool client. A lost connection must not crash the process (an 'error'
   * on a checked-out client with no handler would): the client is dropped and the subscription
   * made again after a second, and the listener is called once with '' after every re-subscription
   * so it can look for what it may have missed meanwhile.
   */
  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    let client: pg.PoolClient | undefined;
    let closed = false;
    let retry: NodeJS.Timeout | undefined;
    const handler = (msg: pg.Notification) => {
      if (msg.channel === channel) onNotify(msg.payload ?? '');
    };
    const subscribe = async (): Promise<void> => {
      const c = await this.pool.connect();
      c.on('notification', handler);
      c.once('error', () => {
        c.off('notification', handler);
        c.release(true);
        if (client === c) client = undefined;
        if (!closed) resubscribe();
      });
      try {
        await c.query(`LISTEN ${channel}`);
      } catch (err) {
        c.off('notification', handler);
        c.release(true);
        throw err;
      }
      client = c;
    };
    const resubscribe = () => {
      retry = setTimeout(() => {
        subscribe().then(
          () => onNotify(''),
          () => {
            if (!closed) resubscribe();
          },
        );
      }, 1000);
      retry.unref();
    };
    await subscribe();
    return async () => {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      if (!c) return;
      c.off('notification', handler);
      try {
        await c.query(`UNLISTEN ${channel}`);
        c.release();
      } catch {
        c.release(true);
      }
    };
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
