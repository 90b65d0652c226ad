import { Redis } from 'ioredis';
import { RateLimitTimeout } from './fail-open.ts';
import { occupancyVersionId } from '../store/business-versions.ts';
import type { HitWithVersions, RateLimitDecision, RateLimitStore } from './store.ts';

/**
 * One atomic script per check: a sorted set per counter, scored by Redis server time in
 * milliseconds (so every instance shares one clock, whatever their own clocks say). Entries a full
 * window old are dropped, the rest counted; an allowed request is added. Refused requests are not
 * added. The key expires one window after its last entry, so idle counters vanish on their own.
 * `before` runs first and `extra` is appended to the reply.
 *
 * Returns { allowed (1|0), remaining, resetMs, ...extra }.
 */
const hitScript = (before: string, extra: string) => `${before}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {1, limit - count - 1, tonumber(oldest[2]) + window - now${extra}}
end
local freeing = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
return {0, 0, tonumber(freeing[2]) + window - now${extra}}
`;

const HIT_SCRIPT = hitScript('', '');

/**
 * The same check, and in the same round trip the business's published versions (-1 when Redis has
 * none): its own (KEYS[2]) and its occupancy's (KEYS[3]): the caches of src/cache/ learn there
 * whether a business or its bookings changed.
 */
const HIT_WITH_VERSION_SCRIPT = hitScript(
  `local v = tonumber(redis.call('GET', KEYS[2]) or '-1')
local o = tonumber(redis.call('GET', KEYS[3]) or '-1')`,
  ', v, o',
);

/** Raises a published version, never lowers it: publications of two writers may arrive in either order. */
const PUBLISH_VERSION_SCRIPT = `
local cur = tonumber(redis.call('GET', KEYS[1]) or '-1')
if tonumber(ARGV[1]) > cur then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
`;

type HitReply = [number, number, number];
type HitWithVersionReply = [number, number, number, number, number];

interface ScriptedRedis extends Redis {
  rateLimitHit(key: string, limit: number, windowMs: number, member: string): Promise<HitReply>;
  rateLimitHitWithVersion(
    key: string,
    versionKey: string,
    occupancyKey: string,
    limit: number,
    windowMs: number,
    member: string,
  ): Promise<HitWithVersionReply>;
  publishVersion(versionKey: string, version: number): Promise<number>;
}

export interface RedisStoreOptions {
  /** every key starts with it; tests use a random one so parallel runs never share counters */
  prefix?: string;
  /** ioredis `commandTimeout`: a slow Redis fails the check instead of holding the request */
  commandTimeoutMs: number;
}

export class RedisRateLimitStore implements RateLimitStore {
  readonly name = 'redis';
  // ioredis's commandTimeout (the configured rate-limit timeout) ends a check Redis does not answer.
  readonly timesItself = true;
  private readonly redis: ScriptedRedis;
  private readonly prefix: string;
  /** makes each sorted-set member unique across instances and within one millisecond */
  private readonly instance = `${process.pid}.${Math.random().toString(36).slice(2, 10)}`;
  private seq = 0;
  private readonly commandTimeoutMs: number;

  constructor(url: string, opts: RedisStoreOptions, onError: (err: Error) => void) {
    this.prefix = opts.prefix ?? 'booking:rl:';
    this.commandTimeoutMs = opts.commandTimeoutMs;
    this.redis = new Redis(url, {
      // No offline queue: while Redis is away a check fails at once (and the limiter fails open)
      // instead of piling up until it returns.
      enableOfflineQueue: false,
      commandTimeout: opts.commandTimeoutMs,
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      // Keep reconnecting in the background, at most every 2 s.
      retryStrategy: (times) => Math.min(times * 100, 2000),
    }) as ScriptedRedis;
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis.defineCommand('rateLimitHitWithVersion', { numberOfKeys: 3, lua: HIT_WITH_VERSION_SCRIPT });
    this.redis.defineCommand('publishVersion', { numberOfKeys: 1, lua: PUBLISH_VERSION_SCRIPT });
    this.redis.on('error', onError);
    this.redis.on('ready', () => {
      for (const l of this.readyListeners) l();
    });
  }

  private readonly readyListeners = new Set<() => void>();

  /** Called on each (re)connection: a Redis that restarted may have lost or rolled back versions. */
  onConnected(listener: () => void): void {
    this.readyListeners.add(listener);
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    this.seq = (this.seq + 1) % Number.MAX_SAFE_INTEGER;
    const member = `${this.instance}.${this.seq}`;
    let reply: HitReply;
    try {
      reply = await this.redis.rateLimitHit(this.prefix + key, limit, windowMs, member);
    } catch (err) {
      // ioredis's own commandTimeout: report it as the slowness it is, not as a failure.
      if (err instanceof Error && err.message === 'Command timed out') throw new RateLimitTimeout(this.commandTimeoutMs);
      throw err;
    }
    const [allowed, remaining, resetMs] = reply;
    return { allowed: allowed === 1, remaining, resetMs: Math.max(0, resetMs), ...(allowed === 1 ? { counted: member } : {}) };
  }

  async forget(key: string, counted: string): Promise<void> {
    await this.redis.zrem(this.prefix + key, counted);
  }

  /** The check, plus the business's published versions (undefined when Redis has none). */
  async hitWithVersion(key: string, limit: number, windowMs: number, businessId: string): Promise<HitWithVersions> {
    this.seq = (this.seq + 1) % Number.MAX_SAFE_INTEGER;
    const member = `${this.instance}.${this.seq}`;
    let reply: HitWithVersionReply;
    try {
      reply = await this.redis.rateLimitHitWithVersion(
        this.prefix + key,
        this.versionKey(businessId),
        this.versionKey(occupancyVersionId(businessId)),
        limit,
        windowMs,
        member,
      );
    } catch (err) {
      if (err instanceof Error && err.message === 'Command timed out') throw new RateLimitTimeout(this.commandTimeoutMs);
      throw err;
    }
    const [allowed, remaining, resetMs, version, occupancy] = reply;
    return {
      decision: { allowed: allowed === 1, remaining, resetMs: Math.max(0, resetMs) },
      version: version < 0 ? undefined : version,
      occupancy: occupancy < 0 ? undefined : occupancy,
    };
  }

  /** Makes `version` (a committed business_versions value) the published one unless a later one is. */
  async publishVersion(businessId: string, version: number): Promise<void> {
    await this.redis.publishVersion(this.versionKey(businessId), version);
  }

  private versionKey(businessId: string): string {
    return `${this.prefix}bv:${businessId}`;
  }

  /** A connection that is up but frozen answers nothing: ioredis's status would still say `ready`. */
  async ping(): Promise<boolean> {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async ready(timeoutMs: number): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        resolve(ok);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.redis.once('ready', onReady);
    });
  }

  async close(): Promise<void> {
    // quit() waits for replies in flight; disconnect() if Redis is unreachable.
    if (this.redis.status === 'ready') {
      await this.redis.quit().catch(() => this.redis.disconnect());
    } else {
      this.redis.disconnect();
    }
  }
}
