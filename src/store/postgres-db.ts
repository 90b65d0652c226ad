import { createHash } from 'node:crypto';
import pg from 'pg';
import { announceBumps, mayBumpVersion, parseBumps, READ_BUMPS_SQL, type VersionBumpListener } from './business-versions.ts';
import type { Db, Queryable, QueryResult } from './db.ts';
import { DatabaseBusyError } from './db-errors.ts';

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

// pg-pool's two ways of saying that no connection was had within connectionTimeoutMillis: none came
// free in the queue, or a new one did not finish connecting.
const POOL_TIMEOUTS = new Set(['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout']);

function fromPoolError(err: unknown): unknown {
  return err instanceof Error && POOL_TIMEOUTS.has(err.message) ? new DatabaseBusyError() : err;
}

class ClientQueryable implements Queryable {
  constructor(private readonly c: pg.PoolClient | pg.Pool) {}
  async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
    try {
      const r =
        params.length === 0
          ? await this.c.query(sql)
          : await this.c.query({ text: sql, values: params as unknown[], name: statementName(sql) });
      return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
    } catch (err) {
      throw fromPoolError(err);
    }
  }
  async exec(sql: string): Promise<void> {
    await this.c.query(sql);
  }
}

/**
 * Reads what the transaction bumped and commits, in one round trip. The bump takes the business's
 * version row, which every create of the business updates: sending COMMIT in the same message
 * releases it without waiting for this process to read the answer and reply, so concurrent creates
 * queue on that row for the server's time only, not for this event loop's (docs/performance.md).
 */
async function readBumpsAndCommit(client: pg.PoolClient) {
  const results = (await client.query(`${READ_BUMPS_SQL}; COMMIT`)) as unknown as pg.QueryResult[];
  const read = results.find((r) => r.command === 'SELECT');
  return parseBumps((read?.rows[0] as { b?: string | null } | undefined)?.b);
}

export class PostgresDb implements Db {
  readonly kind = 'postgres' as const;
  private readonly q: ClientQueryable;
  private readonly bumpListeners = new Set<VersionBumpListener>();

  constructor(readonly pool: pg.Pool) {
    this.q = new ClientQueryable(pool);
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
  }

  /** `timeoutMs`: the longest a caller waits for a connection before DatabaseBusyError. */
  static open(connectionString: string, max: number, timeoutMs = 10_000): PostgresDb {
    return new PostgresDb(new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: timeoutMs }));
  }

  query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
    if (this.bumpListeners.size > 0 && mayBumpVersion(sql)) return this.transaction((tx) => tx.query<T>(sql, params));
    return this.q.query<T>(sql, params);
  }

  onVersionBumps(listener: VersionBumpListener): () => void {
    this.bumpListeners.add(listener);
    return () => this.bumpListeners.delete(listener);
  }

  exec(sql: string): Promise<void> {
    return this.q.exec(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect().catch((err: unknown) => {
      throw fromPoolError(err);
    });
    let broken = false;
    let released = false;
    try {
      await client.query('BEGIN');
      const result = await fn(new ClientQueryable(client));
      let bumps: Awaited<ReturnType<typeof readBumpsAndCommit>> | undefined;
      if (this.bumpListeners.size > 0) bumps = await readBumpsAndCommit(client);
      else await client.query('COMMIT');
      if (bumps) {
        // Committed: the client goes back to the pool before the listeners run.
        client.release();
        released = true;
        await announceBumps(this.bumpListeners, bumps);
      }
      return result;
    } catch (err) {
      if (released) throw err;
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw err;
    } finally {
      if (!released) client.release(broken);
    }
  }

  /**
   * LISTEN on a connection of its own, outside the pool: it is held for the life of the process, so
   * taking it from the pool would leave a pool of one (DB_POOL_MAX=1) with nothing for queries. A
   * lost connection must not crash the process: it is closed and the subscription made again after
   * a second, and the listener is then called once with '' so it can look for what it may have
   * missed meanwhile.
   */
  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    let active: pg.Client | undefined;
    let closed = false;
    let retry: NodeJS.Timeout | undefined;
    const ended = new WeakSet<pg.Client>();
    // Idempotent: a connection may both reject a query and emit 'error' for one failure.
    const end = async (c: pg.Client): Promise<void> => {
      if (ended.has(c)) return;
      ended.add(c);
      c.removeAllListeners('notification');
      await c.end().catch(() => {});
    };
    const resubscribe = (): void => {
      clearTimeout(retry);
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
    const subscribe = async (): Promise<void> => {
      const c = new pg.Client(this.pool.options);
      c.on('notification', (msg: pg.Notification) => {
        if (msg.channel === channel) onNotify(msg.payload ?? '');
      });
      c.on('error', () => {
        const wasActive = active === c;
        void end(c);
        if (wasActive) {
          active = undefined;
          if (!closed) resubscribe();
        }
      });
      try {
        await c.connect();
        await c.query(`LISTEN ${channel}`);
      } catch (err) {
        await end(c);
        throw err;
      }
      if (closed) await end(c);
      else active = c;
    };
    await subscribe();
    return async () => {
      closed = true;
      clearTimeout(retry);
      const c = active;
      active = undefined;
      // Closing the connection ends its LISTEN.
      if (c) await end(c);
    };
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
