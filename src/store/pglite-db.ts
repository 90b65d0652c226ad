import { PGlite, types, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { lockDataDir, type DataDirLock } from './data-dir-lock.ts';
import {
  announceBumps,
  mayBumpVersion,
  parseBumps,
  READ_BUMPS_SQL,
  type VersionBumpListener,
  type VersionBumps,
} from './business-versions.ts';
import type { Db, Queryable, QueryResult } from './db.ts';

// Dates stay 'YYYY-MM-DD' strings and bigints become numbers, matching the pg adapter.
const parsers = {
  [types.DATE]: (v: string) => v,
  [types.INT8]: (v: string) => Number(v),
};

class PgliteQueryable implements Queryable {
  constructor(private readonly q: Pick<PGlite, 'query' | 'exec'>) {}
  async exec(sql: string): Promise<void> {
    await this.q.exec(sql);
  }
  async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
    const r = await this.q.query<T>(sql, params as unknown[]);
    // PGlite's affectedRows is 0 for a SELECT; pg's rowCount counts the rows it returned.
    return { rows: r.rows, rowCount: Math.max(r.affectedRows ?? 0, r.rows.length) };
  }
}

/**
 * PGlite is one connection in this process: transactions are serialised by PGlite itself, and
 * LISTEN/NOTIFY stay inside this process (there is no other connection to reach). A data folder
 * is locked for as long as it is open (data-dir-lock.ts): a second process on it would serve
 * from its own copy and lose writes.
 */
export class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  private readonly q: PgliteQueryable;
  private readonly bumpListeners = new Set<VersionBumpListener>();

  private constructor(
    readonly pg: PGlite,
    private readonly lock: DataDirLock | undefined,
  ) {
    this.q = new PgliteQueryable(pg);
  }

  /** Throws DataDirLockedError when another live process has `dataDir` open. */
  static async open(dataDir: string | undefined, loadDataDir?: Blob | File): Promise<PgliteDb> {
    const options: PGliteOptions = { extensions: { btree_gist }, parsers };
    if (loadDataDir) options.loadDataDir = loadDataDir;
    const dir = dataDir === 'memory://' ? undefined : dataDir;
    if (dir === undefined) return new PgliteDb(await PGlite.create(options), undefined);
    const lock = lockDataDir(dir);
    try {
      return new PgliteDb(await PGlite.create(dir, options), lock);
    } catch (err) {
      lock.release();
      throw err;
    }
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
    if (this.bumpListeners.size === 0) return this.pg.transaction((tx) => fn(new PgliteQueryable(tx)));
    let bumps: VersionBumps = new Map();
    const result = await this.pg.transaction(async (tx) => {
      const r = await fn(new PgliteQueryable(tx));
      const results = await tx.exec(READ_BUMPS_SQL);
      bumps = parseBumps((results.at(-1)?.rows[0] as { b?: string | null } | undefined)?.b);
      return r;
    });
    await announceBumps(this.bumpListeners, bumps);
    return result;
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    // PGlite's own LISTEN: a pg_notify inside a transaction reaches the listener at commit, like
    // PostgreSQL's, so SQL that notifies (booking-events.ts) works the same on both.
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    const unlisten = await this.pg.listen(channel, onNotify);
    return async () => {
      if (!this.pg.closed) await unlisten();
    };
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.pg.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  dump(): Promise<File | Blob> {
    return this.pg.dumpDataDir('none');
  }

  async close(): Promise<void> {
    try {
      if (!this.pg.closed) await this.pg.close();
    } finally {
      // after PGlite has written its last page
      this.lock?.release();
    }
  }
}
