/** What one check against a rolling-window counter decided. */
export interface RateLimitDecision {
  allowed: boolean;
  /** requests still allowed in the window after this one (0 when refused) */
  remaining: number;
  /**
   * Milliseconds until the window frees a place: until the oldest counted request leaves it (on a
   * refusal, the one whose leaving brings the count below the limit). 0 when nothing is counted.
   */
  resetMs: number;
  /** which entry an allowed request added to the counter, for `forget` (absent when refused) */
  counted?: string;
}

/** A check and the versions published for the business (undefined when none is). */
export interface HitWithVersions {
  decision: RateLimitDecision;
  /** the business's own version (keys, plan, catalogue, hours) */
  version: number | undefined;
  /** its occupancy version (bookings, group sessions) */
  occupancy: number | undefined;
}

/**
 * A rolling-window counter: counts a request only when it is allowed, so a refused client is let in
 * again exactly when its oldest counted request is a full window old. Implementations must make the
 * check-and-count atomic across every process that shares the store.
 */
export interface RateLimitStore {
  /** `memory` or `redis`: a metric label and a log field */
  readonly name: string;
  /**
   * Answers or fails within the configured rate-limit timeout by itself (no I/O, or its client's
   * own command timeout), so a check needs no timer of its own.
   */
  readonly timesItself?: boolean;
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  /**
   * Takes back one counted request (`decision.counted`), as if it had never been made: the account
   * limits count a sign-in before its password is checked and take it back when it was right.
   */
  forget?(key: string, counted: string): Promise<void>;
  /**
   * A store shared by every instance (Redis) also answers, in the same round trip, the version
   * published for the business (undefined when none is): the caches' cross-instance check.
   */
  hitWithVersion?(key: string, limit: number, windowMs: number, businessId: string): Promise<HitWithVersions>;
  /** Publishes a committed business version for every instance (raise only). */
  publishVersion?(businessId: string, version: number): Promise<void>;
  /** Called on each (re)connection of a shared store. */
  onConnected?(listener: () => void): void;
  /**
   * A shared store's health for /readyz: true when it answers a PING within its timeout. Absent on
   * the in-process store (there is nothing to reach).
   */
  ping?(): Promise<boolean>;
  /** Resolves once the store can answer (bounded by `timeoutMs`); false when it could not connect. */
  ready(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}
