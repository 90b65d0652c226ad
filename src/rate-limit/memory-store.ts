import type { RateLimitDecision, RateLimitStore } from './store.ts';

/**
 * In-process sliding log: per counter, the times of the requests counted in the last window. Exact
 * (no bucket approximation) and cheap at these limits (at most a few hundred entries per counter).
 * A request at `t` is counted while `now - t < window`: exactly one window later it has left.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly name = 'memory';
  readonly timesItself = true;
  private readonly logs = new Map<string, number[]>();
  private hitsSinceSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const now = this.now();
    this.maybeSweep(now, windowMs);
    const log = this.logs.get(key) ?? [];
    // The log is sorted, so what left the window is a prefix: dropped in place (a saturated key's
    // log is `limit` long, and copying it on every request was most of this store's cost).
    let expired = 0;
    while (expired < log.length && log[expired]! <= now - windowMs) expired++;
    if (expired > 0) log.splice(0, expired);
    let allowed = false;
    if (log.length < limit) {
      allowed = true;
      // Kept sorted even if a test clock goes back; the oldest entry is always log[0].
      let i = log.length;
      while (i > 0 && log[i - 1]! > now) i--;
      log.splice(i, 0, now);
    }
    if (log.length === 0) this.logs.delete(key);
    else this.logs.set(key, log);
    // Refused: the count drops below the limit when entry (count - limit) leaves.
    const freeing = allowed ? log[0] : log[log.length - limit];
    return {
      allowed,
      remaining: allowed ? limit - log.length : 0,
      resetMs: freeing === undefined ? 0 : Math.max(0, freeing + windowMs - now),
      ...(allowed ? { counted: String(now) } : {}),
    };
  }

  async forget(key: string, counted: string): Promise<void> {
    const log = this.logs.get(key);
    // Entries of one millisecond are alike: dropping any one of them takes back one request.
    const i = log?.indexOf(Number(counted)) ?? -1;
    if (!log || i < 0) return;
    log.splice(i, 1);
    if (log.length === 0) this.logs.delete(key);
  }

  /** Drops counters nobody used for a window, so memory follows the keys active in the last minute. */
  private maybeSweep(now: number, windowMs: number): void {
    if (++this.hitsSinceSweep < 10_000) return;
    this.hitsSinceSweep = 0;
    for (const [k, log] of this.logs) {
      if (log[log.length - 1]! <= now - windowMs) this.logs.delete(k);
    }
  }

  async ready(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.logs.clear();
  }
}
