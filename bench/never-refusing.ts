import { MemoryRateLimitStore } from '../src/rate-limit/memory-store.ts';
import { RedisRateLimitStore } from '../src/rate-limit/redis-store.ts';
import type { HitWithVersions, RateLimitDecision, RateLimitStore } from '../src/rate-limit/store.ts';

/**
 * The production store at the production limits, its refusals ignored: each hit costs what it costs
 * a key at its limit in production (the in-process sliding log holds at most `limit` entries), and
 * the load is never refused. (test/helpers' GenerousRateLimitStore multiplies the limits instead,
 * which makes the in-process log — and every hit's scan of it — a thousand times longer than any
 * production key's: a fifth of the server's CPU in this bench's profiles.)
 */
export class NeverRefusingRateLimitStore implements RateLimitStore {
  readonly name: string;
  readonly timesItself: boolean | undefined;
  constructor(private readonly inner: RateLimitStore) {
    this.name = inner.name;
    this.timesItself = inner.timesItself;
  }
  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const d = await this.inner.hit(key, limit, windowMs);
    return d.allowed ? d : { allowed: true, remaining: 0, resetMs: d.resetMs };
  }
  ready(timeoutMs: number): Promise<boolean> {
    return this.inner.ready(timeoutMs);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The same for Redis, which also carries the caches' versions (without them the caches would be off). */
class NeverRefusingRedisStore extends NeverRefusingRateLimitStore {
  constructor(private readonly redis: RedisRateLimitStore) {
    super(redis);
  }
  async hitWithVersion(key: string, limit: number, windowMs: number, businessId: string): Promise<HitWithVersions> {
    const r = await this.redis.hitWithVersion(key, limit, windowMs, businessId);
    return r.decision.allowed ? r : { ...r, decision: { allowed: true, remaining: 0, resetMs: r.decision.resetMs } };
  }
  publishVersion(businessId: string, version: number): Promise<void> {
    return this.redis.publishVersion(businessId, version);
  }
  onConnected(listener: () => void): void {
    this.redis.onConnected(listener);
  }
}

/** The production store (Redis when REDIS_URL is set, else in process), its refusals ignored. */
export async function openRateLimits(): Promise<RateLimitStore> {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) return new NeverRefusingRateLimitStore(new MemoryRateLimitStore());
  const redis = new RedisRateLimitStore(redisUrl, { commandTimeoutMs: 500 }, (err) => console.error(`redis: ${err.message}`));
  if (!(await redis.ready(2000))) throw new Error(`Redis at ${redisUrl} is not reachable`);
  return new NeverRefusingRedisStore(redis);
}
