/**
 * The narrow interface every store module talks to. Both PGlite and PostgreSQL implement it, so the
 * same SQL runs on either.
 */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Runs several statements without parameters (simple protocol): migrations only. */
  exec(sql: string): Promise<void>;
}

export type DbKind = 'pglite' | 'postgres';

/** Business id → the version a committed transaction bumped it to (migration 011). */
export type VersionBumps = ReadonlyMap<string, number>;
export type VersionBumpListener = (bumps: VersionBumps) => Promise<void>;

export interface Db extends Queryable {
  readonly kind: DbKind;
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Subscribes to NOTIFY on a channel (PostgreSQL) or an in-process signal (PGlite). */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Called after each commit that bumped business versions (migration 011), before the transaction's
   * promise resolves, so a cache is invalidated before the write is answered. Returns the unsubscribe.
   * While nobody listens, transactions do not read their bumps.
   */
  onVersionBumps(listener: VersionBumpListener): () => void;
  /**
   * The same database for background work (the job worker in the API process): on PGlite's one
   * connection its statements wait for the requests' waiting ones (pglite-gate.ts); PostgreSQL
   * serves both from its pool, so it has no such view.
   */
  background?(): Db;
  close(): Promise<void>;
}
