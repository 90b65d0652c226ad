import pg from 'pg';
import type { Db, Queryable, QueryResult } from './db.ts';

// Same value shapes as the PGlite adapter: dates as 'YYYY-MM-DD', bigints as numbers.
pg.types.setTypeParser(pg.types.builtins.DATE, (v: string) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));

class ClientQueryable implements Queryable {
  constructor(private readonly c: pg.PoolClient | pg.Pool) {}
  async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
    const r = await this.c.query(sql, params as unknown[]);
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

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    const client = await this.pool.connect();
    const handler = (msg: pg.Notification) => {
      if (msg.channel === channel) onNotify(msg.payload ?? '');
    };
    client.on('notification', handler);
    await client.query(`LISTEN ${channel}`);
    return async () => {
      client.off('notification', handler);
      try {
        await client.query(`UNLISTEN ${channel}`);
      } finally {
        client.release();
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
