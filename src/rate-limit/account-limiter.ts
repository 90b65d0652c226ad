import { withTimeout } from './fail-open.ts';
import { MemoryRateLimitStore } from './memory-store.ts';
import type { RateLimitDecision, RateLimitStore } from './store.ts';

export interface AccountLimiterOptions {
  /** the rate-limit timeout: a shared store slower than this counts as failed */
  timeoutMs: number;
  /** the app's clock in milliseconds, for this process's own counters */
  now: () => number;
  /** told of each failure of the shared store; it logs (throttled), never the keys */
  onFallback: (err: unknown) => void;
}

/** One check: a counter's key and its limit. */
export type AccountCheck = readonly [key: string, limit: number];

/** What `hitAll` decided, and how to take back what it counted. */
export interface AccountHits {
  /** the first refusal, or undefined when every check allowed */
  refused: RateLimitDecision | undefined;
  /**
   * Takes back every request this call counted (where it was counted: the shared store or this
   * process). Best effort: a store that fails now leaves the count, which errs on the safe side.
   */
  forgive(): Promise<void>;
}

/**
 * The counters of the account limits (sign-in, invitation acceptance, password reset): the shared
 * store (Redis when configured, so the limits hold across instances), and when it errors or does
 * not answer in time, counters of this process with the same limits. Unlike the public API's
 * limiter it never fails open: a Redis outage must not lift the limit on password guessing.
 * Made once per app (`app.ctx.accountLimits`); every account limit goes through it, so no caller
 * can forget the fallback.
 *
 * The fallback counts only what this process sees while the shared store fails, from zero; with
 * several instances each holds the limits on its own, so an attacker spread over n instances gets
 * at most n times the limit until Redis is back.
 */
export class AccountLimiter {
  /** one store per window length: the in-process store sweeps idle counters by the window of the call */
  private readonly local = new Map<number, MemoryRateLimitStore>();

  constructor(
    /**
     * undefined without Redis: the public API's in-process store is no more shared than ours, and it
     * sweeps by its callers' window (a minute), which would drop these longer-window counters.
     */
    private readonly shared: RateLimitStore | undefined,
    private readonly opts: AccountLimiterOptions,
  ) {}

  /**
   * Counts the checks in order, each in its own counter over `windowMs`, and answers the first
   * refusal (the later checks are then not counted), or undefined when every check allows. Once the
   * shared store failed, the rest of the call counts in process without waiting on it again.
   */
  async hitAll(checks: readonly AccountCheck[], windowMs: number): Promise<AccountHits> {
    let shared = this.shared;
    const counted: Array<{ store: RateLimitStore; key: string; entry: string }> = [];
    const forgive = async (): Promise<void> => {
      for (const c of counted.splice(0)) {
        try {
          await withTimeout(c.store.forget?.(c.key, c.entry) ?? Promise.resolve(), this.opts.timeoutMs);
        } catch (err) {
          this.opts.onFallback(err);
        }
      }
    };
    for (const [key, limit] of checks) {
      let decision: RateLimitDecision | undefined;
      let store: RateLimitStore | undefined;
      if (shared) {
        try {
          decision = await withTimeout(shared.hit(key, limit, windowMs), this.opts.timeoutMs);
          store = shared;
        } catch (err) {
          shared = undefined;
          this.opts.onFallback(err);
        }
      }
      if (!decision) {
        store = this.localStore(windowMs);
        decision = await store.hit(key, limit, windowMs);
      }
      if (!decision.allowed) return { refused: decision, forgive };
      if (decision.counted !== undefined) counted.push({ store: store!, key, entry: decision.counted });
    }
    return { refused: undefined, forgive };
  }

  private localStore(windowMs: number): MemoryRateLimitStore {
    let store = this.local.get(windowMs);
    if (!store) {
      store = new MemoryRateLimitStore(this.opts.now);
      this.local.set(windowMs, store);
    }
    return store;
  }

  async close(): Promise<void> {
    for (const s of this.local.values()) await s.close();
    this.local.clear();
  }
}
