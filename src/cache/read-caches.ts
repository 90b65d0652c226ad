import type { Db } from '../store/db.ts';
import type { KeyWithBusiness } from '../store/api-keys.ts';
import type { VersionBumps } from '../store/business-versions.ts';
import { occupancyVersionId } from '../store/business-versions.ts';
import { Lru } from './lru.ts';

/**
 * How the caches learn that a business's version moved (docs/architecture.md "Caches and their
 * invalidation"):
 * - `redis`: every instance reads the published version from Redis in the rate-limit round trip
 *   each public request already makes; writes publish there after commit.
 * - `local`: one process (PGlite, no Redis): the published versions live in this process.
 * - `off`: several instances may share the database with no Redis to tell them; nothing is cached.
 */
export type CacheMode = 'redis' | 'local' | 'off';

/** What an answer was read under: a business version, or several joined ("12/40": catalogue/occupancy). */
export type AnswerVersion = number | string;

/** Publishes a committed version for every instance to see (Redis); resolves once it is visible. */
export type VersionPublisher = (businessId: string, version: number) => Promise<void>;

/** An answer and the version it was read under; `weight` counts in a pool bounded by weight. */
interface CachedAnswer {
  version: AnswerVersion;
  data: unknown;
  weight: number;
}

interface CachedKey {
  key: KeyWithBusiness;
  /** Date.now() when read; the entry is re-read after KEY_MAX_AGE_MS so last_used_at stays within a minute */
  readAt: number;
}

/** A cached key is read again after this long (the lookup stamps last_used_at once a minute). */
const KEY_MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 10_000;
/**
 * A search's open slots are the large answers (a month of a 10-staff salon working 10 hours a day
 * on a 15-minute grid is ~12,000 slots, ~2 MB) and vary with the searched range: a pool of their
 * own, bounded by weight (an answer's `weight`, about its slot and interval count; ~175 bytes
 * each) keeps them from pushing the keys and catalogue out and caps their memory at ~35 MB.
 */
export const BUSY_POOL_WEIGHT = 200_000;

export class ReadCaches {
  private readonly keys = new Lru<string, CachedKey>(MAX_ENTRIES);
  private readonly answers = new Lru<string, CachedAnswer>(MAX_ENTRIES);
  private readonly busyAnswers = new Lru<string, CachedAnswer>(BUSY_POOL_WEIGHT, (e) => e.weight);
  /** local mode: the latest committed version of each business this process wrote or read */
  private readonly local = new Map<string, number>();
  private unsubscribe: (() => void) | undefined;
  /** redis mode: versions whose publication failed, retried until Redis takes them */
  private readonly unpublished = new Map<string, number>();
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    readonly mode: CacheMode,
    private readonly publisher: VersionPublisher | undefined,
    private readonly onPublishError: (err: unknown) => void = () => {},
  ) {}

  /** Listens to the database's version bumps; the writer's transaction resolves after they are published. */
  attach(db: Db): void {
    if (this.mode === 'off') return;
    this.unsubscribe = db.onVersionBumps((bumps) => this.published(bumps));
  }

  private async published(bumps: VersionBumps): Promise<void> {
    for (const [id, v] of bumps) {
      this.noteLocal(id, v);
      if (this.mode === 'redis' && this.publisher) {
        try {
          await this.publisher(id, v);
        } catch (err) {
          // Committed but not published: other instances would keep serving the old version until
          // it is; this instance retries in the background (docs/architecture.md names the gap).
          this.onPublishError(err);
          if (!(this.unpublished.get(id)! >= v)) this.unpublished.set(id, v);
          this.scheduleRetry();
        }
      }
    }
  }

  private scheduleRetry(): void {
    if (this.retry || this.closed) return;
    this.retry = setTimeout(async () => {
      this.retry = undefined;
      for (const [id, v] of [...this.unpublished]) {
        try {
          await this.publisher!(id, v);
          if (this.unpublished.get(id) === v) this.unpublished.delete(id);
        } catch {
          break;
        }
      }
      if (this.unpublished.size > 0) this.scheduleRetry();
    }, 500);
    this.retry.unref();
  }

  private noteLocal(businessId: string, version: number): void {
    if (!(this.local.get(businessId)! >= version)) this.local.set(businessId, version);
  }

  /** local mode: the version every answer of the business must have been read under; else undefined. */
  localVersion(businessId: string): number | undefined {
    return this.mode === 'local' ? this.local.get(businessId) : undefined;
  }

  /**
   * Whether this process has seen a committed version of the business later than `version` (its
   * own writes, or versions read from the database): then an answer under `version` is not trusted,
   * even if Redis has not taken the later one yet (a failed publication).
   */
  knowsLater(businessId: string, version: number): boolean {
    return this.local.get(businessId)! > version;
  }

  /** Forgets every entry (Redis reconnected: the versions it holds may have been lost or rolled back). */
  clear(): void {
    this.keys.clear();
    this.answers.clear();
    this.busyAnswers.clear();
  }

  /** A cached key that is neither expired nor due for its last-used stamp; the caller checks its version. */
  cachedKey(hash: string, now = Date.now()): KeyWithBusiness | undefined {
    if (this.mode === 'off') return undefined;
    const e = this.keys.get(hash);
    if (!e) return undefined;
    const expires = e.key.expires_at === null ? Infinity : new Date(e.key.expires_at).getTime();
    if (now >= expires || now - e.readAt >= KEY_MAX_AGE_MS) {
      this.keys.delete(hash);
      return undefined;
    }
    return e.key;
  }

  /** A key just read from the database, with the version of the same snapshot. */
  rememberKey(hash: string, key: KeyWithBusiness, now = Date.now()): void {
    if (this.mode === 'off') return;
    // A version read from the database is committed, so it may raise what this process knows.
    this.noteLocal(key.business_id, Number(key.version));
    this.noteLocal(occupancyVersionId(key.business_id), Number(key.occupancy));
    this.keys.set(hash, { key, readAt: now });
  }

  forgetKey(hash: string): void {
    this.keys.delete(hash);
  }

  /**
   * The answer for `id` if it was read under `version` (the version known before this request
   * read anything); otherwise reads it, and keeps it under that version. No version: no cache.
   */
  answer<T>(version: AnswerVersion | undefined, id: string, read: () => Promise<T>): Promise<T> {
    return this.answerIn(this.answers, version, id, read, () => 1);
  }

  /** The same for the large answers (busy times, open slots), kept in their own pool by weight. */
  busyAnswer<T>(
    version: AnswerVersion | undefined,
    id: string,
    read: () => Promise<T>,
    weigh: (data: T) => number,
    usable?: (data: T) => boolean,
  ): Promise<T> {
    return this.answerIn(this.busyAnswers, version, id, read, weigh, usable);
  }

  private async answerIn<T>(
    pool: Lru<string, CachedAnswer>,
    version: AnswerVersion | undefined,
    id: string,
    read: () => Promise<T>,
    weigh: (data: T) => number,
    usable?: (data: T) => boolean,
  ): Promise<T> {
    if (this.mode === 'off' || version === undefined) return read();
    const hit = pool.get(id);
    // usable: what a version cannot say, e.g. a hold in the answer that has ended since (no write).
    if (hit && hit.version === version && (usable?.(hit.data as T) ?? true)) return hit.data as T;
    const data = await read();
    pool.set(id, { version, data, weight: weigh(data) });
    return data;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.unsubscribe?.();
    this.keys.clear();
    this.answers.clear();
    this.busyAnswers.clear();
  }
}
