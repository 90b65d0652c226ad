import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite, types, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
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
import { PgliteGate } from './pglite-gate.ts';

// Dates stay 'YYYY-MM-DD' strings and bigints become numbers, matching the pg adapter.
const parsers = {
  [types.DATE]: (v: string) => v,
  [types.INT8]: (v: string) => Number(v),
};

/**
 * PostgreSQL's settings inside PGlite, chosen for the process's memory (docs/performance.md,
 * "Idle memory (issue 16)"). The buffer pool lives in PGlite's WebAssembly memory and is resident
 * from the start: PGlite's default (128MB) grows that memory to ~190 MB and was half of the idle
 * server's RSS. 16MB (2,048 pages) still holds this service's working set many times over (the
 * read-path bench's world of 2,000 bookings is a few MB); a page not in it is a read from the data
 * folder through the OS's page cache, not from the disk. work_mem, temp_buffers,
 * maintenance_work_mem and wal_buffers (1/32 of shared_buffers) are allocated on use and change
 * nothing at idle, so they keep PostgreSQL's defaults.
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

const run = promisify(execFile);

/**
 * Runs initdb for a new data folder in a short-lived child process. In this process PGlite would
 * create a second, temporary instance for it (its own WebAssembly memory, file bundle and the
 * initdb module): ~100-170 MB that stays resident after it is closed (nothing forces a full GC of
 * an idle server), so a first start would idle at ~150 MB above every later one. Any failure here
 * leaves initdb to the in-process path, which reports it as before.
 */
async function initdbInChild(dir: string): Promise<void> {
  const url = import.meta.resolve('@electric-sql/pglite');
  const script = `const { PGlite } = await import(${JSON.stringify(url)});
const pg = await PGlite.create(${JSON.stringify(dir)}, { startParams: ${JSON.stringify(START_PARAMS)} });
await pg.close();`;
  await run(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: process.env.PATH ?? '' } }).catch(() => undefined);
}

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

  private constructor(
    readonly pg: PGlite,
    private readonly lock: DataDirLock | undefined,
    private readonly shared: { gate: PgliteGate; bumpListeners: Set<VersionBumpListener> } = {
      gate: new PgliteGate(),
      bumpListeners: new Set(),
    },
    /** a view for the job worker: its statements wait for the requests' (pglite-gate.ts) */
    private readonly isBackground = false,
  ) {
    this.q = new PgliteQueryable(pg);
  }

  private get bumpListeners(): Set<VersionBumpListener> {
    return this.shared.bumpListeners;
  }

  /** The same database for the job worker: its statements go after the requests' waiting ones. */
  background(): Db {
    return this.isBackground ? this : new PgliteDb(this.pg, undefined, this.shared, true);
  }

  /** Throws DataDirLockedError when another live process has `dataDir` open. */
  static async open(dataDir: string | undefined, loadDataDir?: Blob | File): Promise<PgliteDb> {
    const options: PGliteOptions = { extensions: { btree_gist, unaccent, pg_trgm }, parsers, startParams: START_PARAMS };
    if (loadDataDir) options.loadDataDir = loadDataDir;
    const dir = dataDir === 'memory://' ? undefined : dataDir;
    if (dir === undefined) return new PgliteDb(await PGlite.create(options), undefined);
    const lock = lockDataDir(dir);
    try {
      // under the lock, so no other process of ours is starting on the folder meanwhile
      if (!loadDataDir && !existsSync(join(dir, 'PG_VERSION'))) await initdbInChild(dir);
      return new PgliteDb(await PGlite.create(dir, options), lock);
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
    if (this.bumpListeners.size > 0 && mayBumpVersion(sql)) return this.transaction((tx) => tx.query<T>(sql, params));
    return this.shared.gate.run(this.isBackground, () => this.q.query<T>(sql, params));
  }

  onVersionBumps(listener: VersionBumpListener): () => void {
    this.bumpListeners.add(listener);
    return () => this.bumpListeners.delete(listener);
  }

  exec(sql: string): Promise<void> {
    return this.shared.gate.run(this.isBackground, () => this.q.exec(sql));
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const gated = <R>(run: () => Promise<R>) => this.shared.gate.run(this.isBackground, run);
    if (this.bumpListeners.size === 0) return gated(() => this.pg.transaction((tx) => fn(new PgliteQueryable(tx))));
    let bumps: VersionBumps = new Map();
    const result = await gated(() =>
      this.pg.transaction(async (tx) => {
        const r = await fn(new PgliteQueryable(tx));
        const results = await tx.exec(READ_BUMPS_SQL);
        bumps = parseBumps((results.at(-1)?.rows[0] as { b?: string | null } | undefined)?.b);
        return r;
      }),
    );
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
    await this.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  dump(): Promise<File | Blob> {
    return this.pg.dumpDataDir('none');
  }

  async close(): Promise<void> {
    // the worker's view closes nothing: the database is its owner's
    if (this.isBackground) return;
    try {
      if (!this.pg.closed) await this.pg.close();
    } finally {
      // after PGlite has written its last page
      this.lock?.release();
    }
  }
}
