/**
 * Rate limits (spec "Limits"): every route group and both tiers through the real routes of the route
 * table, the 429 with Retry-After and details.retryAfterSeconds, the RateLimit headers, per-key and
 * per-group counters, the rolling-window edge on the app clock, the Redis store (when REDIS_URL is
 * set), and fail-open on a redis-server of this test that is frozen and then killed mid-test.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { ConfigError, loadConfig } from '../src/config.ts';
import type { RateGroup } from '../src/rate-limit/policy.ts';
import { MemoryRateLimitStore } from '../src/rate-limit/memory-store.ts';
import { Redis } from 'ioredis';
import { RedisRateLimitStore } from '../src/rate-limit/redis-store.ts';
import type { RateLimitStore } from '../src/rate-limit/store.ts';
import { dbTargets } from './helpers/databases.ts';
import { buildApp } from '../src/app.ts';
import { call, startHarness, testConfig, type Harness, type JsonResponse } from './helpers/harness.ts';
import { api, createBusiness, createKey, type BusinessFixture } from './helpers/fixtures.ts';
import { publicRoutes, type PublicRoute } from './helpers/route-samples.ts';
import { sleep, startRedisServer, type RedisServer } from './helpers/processes.ts';

/** The spec's table ("Limits"): [standard, elevated] per minute. */
const SPEC_LIMITS: Record<RateGroup, { standard: number; elevated: number }> = {
  catalog: { standard: 120, elevated: 600 },
  availability: { standard: 30, elevated: 150 },
  booking: { standard: 30, elevated: 150 },
  webhook: { standard: 10, elevated: 50 },
  subscription: { standard: 60, elevated: 300 },
};

/**
 * The spec's endpoint table, plus our choice for the three endpoints it leaves without a group
 * (docs/decisions.md "Rate limits"): single-booking reads in `booking`, rotate-secret in `webhook`.
 */
const EXPECTED_GROUP: Record<string, RateGroup> = {
  'GET /v1/services': 'catalog',
  'GET /v1/staff': 'catalog',
  'POST /v1/availability/search': 'availability',
  'POST /v1/bookings': 'booking',
  'GET /v1/bookings': 'booking',
  'GET /v1/bookings/:bookingId': 'booking',
  'GET /v1/bookings/:bookingId/events': 'booking',
  'POST /v1/bookings/:bookingId/cancel': 'booking',
  'GET /v1/subscription': 'subscription',
  'GET /v1/webhooks/config': 'webhook',
  'PUT /v1/webhooks/config': 'webhook',
  'DELETE /v1/webhooks/config': 'webhook',
  'POST /v1/webhooks/config/rotate-secret': 'webhook',
  'GET /v1/webhooks/deliveries': 'webhook',
  // added to v1 after the spec (docs/decisions.md "Changes to v1"), in the group of its resource
  'POST /v1/webhooks/deliveries/:deliveryId/redeliver': 'webhook',
  // guest-side.md "Holds" (v1.4.0)
  'POST /v1/holds': 'booking',
  'DELETE /v1/holds/:holdId': 'booking',
  // salon-scheduling.md "Explain" (v1.4.0): group availability
  'POST /v1/availability/explain': 'availability',
};

const TIERS = ['standard', 'elevated'] as const;

/**
 * The cheapest request that passes key, plan, kind and capability: the limiter counts it whatever
 * follows (a write without Idempotency-Key is then 400, a GET without its query 400).
 */
function hitRoute(h: Harness, key: string, r: PublicRoute, headers: Record<string, string> = {}) {
  return call(h.app, {
    method: r.method as 'GET',
    url: r.url.replace(/:([A-Za-z0-9_]+)/g, 'bk_x'),
    headers: { authorization: `Bearer ${key}`, ...headers },
  });
}

function assertHeaders(res: JsonResponse, group: string, limit: number, remaining: number, context: string) {
  assert.equal(res.headers['ratelimit-policy'], `"${group}";q=${limit};w=60`, `${context}: RateLimit-Policy`);
  const m = /^"([a-z]+)";r=(\d+);t=(\d+)$/.exec(String(res.headers.ratelimit));
  assert.ok(m, `${context}: RateLimit header ${res.headers.ratelimit}`);
  assert.equal(m[1], group, `${context}: RateLimit policy name`);
  assert.equal(Number(m[2]), remaining, `${context}: RateLimit r`);
  const t = Number(m[3]);
  assert.ok(t >= 1 && t <= 60, `${context}: RateLimit t=${t}`);
  return t;
}

function assert429(res: JsonResponse, group: string, limit: number, context: string) {
  assert.equal(res.status, 429, `${context}: ${res.raw}`);
  assert.equal(res.body.ok, false);
  assert.equal(res.body.error.code, 'rate_limit.exceeded', context);
  assert.equal(res.body.error.retryable, true, context);
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `${context}: Retry-After ${res.headers['retry-after']}`);
  assert.equal(res.body.error.details.retryAfterSeconds, retryAfter, `${context}: details.retryAfterSeconds`);
  const t = assertHeaders(res, group, limit, 0, context);
  assert.equal(t, retryAfter, `${context}: RateLimit t equals Retry-After`);
  assert.equal(res.headers['x-request-id'], res.body.meta.requestId);
  return retryAfter;
}

function groupsOf(h: Harness): Map<RateGroup, PublicRoute[]> {
  const out = new Map<RateGroup, PublicRoute[]>();
  for (const r of publicRoutes(h.app)) out.set(r.access.group, [...(out.get(r.access.group) ?? []), r]);
  return out;
}

interface StoreCase {
  name: string;
  /** the app clock drives the memory store; Redis uses its server time */
  make(clock: () => Date): RateLimitStore;
}

function storeCases(): StoreCase[] {
  const cases: StoreCase[] = [{ name: 'memory', make: (clock) => new MemoryRateLimitStore(() => clock().getTime()) }];
  const url = process.env.REDIS_URL;
  if (url) {
    cases.push({
      name: 'redis',
      make: () => new RedisRateLimitStore(url, { prefix: `test:rl:${randomUUID()}:`, commandTimeoutMs: 2000 }, () => {}),
    });
  }
  return cases;
}

for (const target of dbTargets()) {
  for (const sc of storeCases()) {
    describe(`rate limits [${target.name}, ${sc.name} store]`, () => {
      let h: Harness;
      let store: RateLimitStore;
      let biz: BusinessFixture;
      before(async () => {
        let clock = () => new Date();
        store = sc.make(() => clock());
        assert.equal(await store.ready(5000), true, 'store ready');
        // A generous timeout: this suite is about counting; fail-open has its own suite below.
        h = await startHarness(target, { rateLimitTimeoutMs: 3000 }, { rateLimitStore: store });
        clock = () => h.clock.now;
        biz = await createBusiness(h.app);
      });
      after(async () => {
        await h.close();
        await store.close();
      });

      test('every public route declares the group of the spec (or of decisions.md)', () => {
        const routes = publicRoutes(h.app);
        assert.ok(routes.length >= 9);
        for (const r of routes) {
          const expected = EXPECTED_GROUP[`${r.method} ${r.url}`];
          assert.ok(expected, `${r.method} ${r.url} is an endpoint of the spec`);
          assert.equal(r.access.group, expected, `${r.method} ${r.url}`);
        }
      });

      for (const tier of TIERS) {
        test(`${tier} tier: in every group the limit-th request passes and the next is 429 on every route of the group`, async () => {
          const groups = groupsOf(h);
          assert.ok(groups.size >= 4, 'groups found');
          for (const [group, routes] of groups) {
            const key = await createKey(h.app, biz.slug, { tier });
            const limit = SPEC_LIMITS[group][tier];
            // The routes of a group share one counter: spread the limit over them.
            for (let i = 0; i < limit; i++) {
              const r = routes[i % routes.length]!;
              const res = await hitRoute(h, key.secret, r);
              const ctx = `${tier} ${group} request ${i + 1}/${limit} ${r.method} ${r.url}`;
              assert.notEqual(res.status, 429, `${ctx}: ${res.raw}`);
              assertHeaders(res, group, limit, limit - i - 1, ctx);
            }
            for (const r of routes) {
              assert429(await hitRoute(h, key.secret, r), group, limit, `${tier} ${group} over the limit ${r.method} ${r.url}`);
            }
          }
        });
      }

      test('counters are per key and per group; refused requests are not counted', async () => {
        const groups = groupsOf(h);
        const booking = groups.get('booking')!;
        const subscription = groups.get('subscription')!;
        const limit = SPEC_LIMITS.booking.standard;
        const a = await createKey(h.app, biz.slug);
        const b = await createKey(h.app, biz.slug);
        for (let i = 0; i < limit; i++) assert.notEqual((await hitRoute(h, a.secret, booking[0]!)).status, 429);
        assert429(await hitRoute(h, a.secret, booking[0]!), 'booking', limit, 'key a, booking');
        assert429(await hitRoute(h, a.secret, booking[0]!), 'booking', limit, 'key a, booking again');
        // Another group of the same key, and the same group of another key of the same business.
        const sub = await hitRoute(h, a.secret, subscription[0]!);
        assert.equal(sub.status, 200, sub.raw);
        assertHeaders(sub, 'subscription', SPEC_LIMITS.subscription.standard, SPEC_LIMITS.subscription.standard - 1, 'key a, subscription');
        const other = await hitRoute(h, b.secret, booking[0]!);
        assert.notEqual(other.status, 429, other.raw);
        assertHeaders(other, 'booking', limit, limit - 1, 'key b, booking');
      });

      test('requests refused before the limiter (401, 403) carry no RateLimit headers and are not counted', async () => {
        const key = await createKey(h.app, biz.slug, { capabilities: ['services.read'] });
        const sub = groupsOf(h).get('subscription')![0]!;
        for (let i = 0; i < SPEC_LIMITS.subscription.standard + 5; i++) {
          const res = await hitRoute(h, key.secret, sub);
          assert.equal(res.body.error.code, 'auth.insufficient_capability');
          assert.equal(res.headers.ratelimit, undefined);
        }
        const bad = await api(h.app, 'bka_not-a-key', 'GET', '/subscription');
        assert.equal(bad.status, 401);
        assert.equal(bad.headers['ratelimit-policy'], undefined);
      });

      if (sc.name === 'memory') {
        test('rolling window on the app clock: exactly 60 s after the first counted request a place frees, 1 ms earlier not', async () => {
          const key = await createKey(h.app, biz.slug);
          const route = groupsOf(h).get('booking')![0]!;
          const limit = SPEC_LIMITS.booking.standard;
          const t0 = new Date('2031-01-01T10:00:00.000Z').getTime();
          h.clock.now = new Date(t0);
          assert.notEqual((await hitRoute(h, key.secret, route)).status, 429);
          h.clock.now = new Date(t0 + 10_000);
          for (let i = 1; i < limit; i++) assert.notEqual((await hitRoute(h, key.secret, route)).status, 429);
          assert.equal(assert429(await hitRoute(h, key.secret, route), 'booking', limit, 'at t0+10s'), 50);
          // Retry-After rounds up: at t0 + 59.001 s, 0.999 s are left, so 1.
          h.clock.now = new Date(t0 + 59_001);
          assert.equal(assert429(await hitRoute(h, key.secret, route), 'booking', limit, 'at t0+59.001s'), 1);
          h.clock.now = new Date(t0 + 59_999);
          assert.equal(assert429(await hitRoute(h, key.secret, route), 'booking', limit, 'at t0+59.999s'), 1);
          // Three refusals so far; they were not counted, or this would be refused too.
          h.clock.now = new Date(t0 + 60_000);
          const edge = await hitRoute(h, key.secret, route);
          assert.notEqual(edge.status, 429, `exactly 60 s later: ${edge.raw}`);
          assertHeaders(edge, 'booking', limit, 0, 'exactly 60 s later');
          // Now the oldest counted request is the one at t0 + 10 s: 10 s to wait, never a fixed minute.
          assert.equal(assert429(await hitRoute(h, key.secret, route), 'booking', limit, 'after the edge'), 10);
          h.clock.now = new Date(t0 + 70_000);
          assert.notEqual((await hitRoute(h, key.secret, route)).status, 429);
        });

        test('a client that waits Retry-After is never early', async () => {
          const key = await createKey(h.app, biz.slug, { tier: 'standard' });
          const route = groupsOf(h).get('availability')![0]!;
          let now = new Date('2031-02-01T08:00:00.000Z').getTime();
          let refused = 0;
          // 200 requests at irregular intervals; whenever refused, wait exactly Retry-After.
          for (let i = 0; i < 200; i++) {
            h.clock.now = new Date(now);
            const res = await hitRoute(h, key.secret, route);
            if (res.status === 429) {
              refused++;
              now += Number(res.headers['retry-after']) * 1000;
              h.clock.now = new Date(now);
              const retry = await hitRoute(h, key.secret, route);
              assert.notEqual(retry.status, 429, `retry after ${res.headers['retry-after']} s was refused`);
            }
            now += (i * 7919) % 1500;
          }
          assert.ok(refused > 0, 'the limit was reached');
        });
      }

      if (sc.name === 'redis') {
        test('Redis: two apps (instances) on one database, each with its own connection, share one counter', async () => {
          const url = process.env.REDIS_URL!;
          const prefix = `test:rl:${randomUUID()}:`;
          const s1 = new RedisRateLimitStore(url, { prefix, commandTimeoutMs: 2000 }, () => {});
          const s2 = new RedisRateLimitStore(url, { prefix, commandTimeoutMs: 2000 }, () => {});
          const h1 = await startHarness(target, { rateLimitTimeoutMs: 3000 }, { rateLimitStore: s1 });
          const app2 = await buildApp({ config: testConfig({ rateLimitTimeoutMs: 3000 }), db: h1.db, logger: false, rateLimitStore: s2 });
          try {
            const b = await createBusiness(h1.app);
            const key = await createKey(h1.app, b.slug);
            const limit = SPEC_LIMITS.subscription.standard;
            const results = await Promise.all(
              Array.from({ length: limit + 10 }, (_, i) => api(i % 2 ? h1.app : app2, key.secret, 'GET', '/subscription')),
            );
            assert.equal(results.filter((r) => r.status === 200).length, limit);
            assert.equal(results.filter((r) => r.status === 429).length, 10);
          } finally {
            await app2.close();
            await h1.close();
            await s1.close();
            await s2.close();
          }
        });

        test('Redis: the window is exact on server time (short window)', async () => {
          const s = new RedisRateLimitStore(
            process.env.REDIS_URL!,
            { prefix: `test:rl:${randomUUID()}:`, commandTimeoutMs: 2000 },
            () => {},
          );
          try {
            assert.equal(await s.ready(5000), true);
            const first = await s.hit('k', 2, 1000);
            assert.deepEqual([first.allowed, first.remaining], [true, 1]);
            assert.ok(first.resetMs > 900 && first.resetMs <= 1000, `resetMs ${first.resetMs}`);
            assert.equal((await s.hit('k', 2, 1000)).allowed, true);
            const refused = await s.hit('k', 2, 1000);
            assert.equal(refused.allowed, false);
            assert.equal(refused.remaining, 0);
            assert.ok(refused.resetMs > 0 && refused.resetMs <= 1000);
            assert.equal((await s.hit('other', 2, 1000)).allowed, true, 'another counter');
            await sleep(refused.resetMs + 5);
            assert.equal((await s.hit('k', 2, 1000)).allowed, true, 'allowed once the oldest left the window');
          } finally {
            await s.close();
          }
        });
      }
    });
  }
}

describe('RATE_LIMIT_TIMEOUT_MS', () => {
  test('defaults to 100 ms; a bad value stops the start naming the variable', () => {
    assert.equal(loadConfig({}).rateLimitTimeoutMs, 100);
    assert.equal(loadConfig({ RATE_LIMIT_TIMEOUT_MS: ' 250 ' }).rateLimitTimeoutMs, 250);
    for (const bad of ['fast', '4', '5001', '-1', '1.5']) {
      assert.throws(
        () => loadConfig({ RATE_LIMIT_TIMEOUT_MS: bad }),
        (err: unknown) => err instanceof ConfigError && err.variable === 'RATE_LIMIT_TIMEOUT_MS',
        bad,
      );
    }
  });
});

describe('memory store', () => {
  test('a request exactly one window after the first counted one is allowed, 1 ms earlier not', async () => {
    let now = 1_000_000;
    const s = new MemoryRateLimitStore(() => now);
    assert.deepEqual(await s.hit('k', 2, 60_000), { allowed: true, remaining: 1, resetMs: 60_000, counted: '1000000' });
    now += 20_000;
    assert.deepEqual(await s.hit('k', 2, 60_000), { allowed: true, remaining: 0, resetMs: 40_000, counted: '1020000' });
    now = 1_059_999;
    assert.deepEqual(await s.hit('k', 2, 60_000), { allowed: false, remaining: 0, resetMs: 1 });
    now = 1_060_000;
    assert.deepEqual(await s.hit('k', 2, 60_000), { allowed: true, remaining: 0, resetMs: 20_000, counted: '1060000' });
    // Taken back: as if it had never been made, so the next one is allowed.
    await s.forget('k', '1060000');
    assert.deepEqual(await s.hit('k', 2, 60_000), { allowed: true, remaining: 0, resetMs: 20_000, counted: '1060000' });
  });

  test('a lowered limit (elevated key made standard) waits for enough requests to leave', async () => {
    let now = 0;
    const s = new MemoryRateLimitStore(() => now);
    for (let i = 0; i < 5; i++) {
      assert.equal((await s.hit('k', 10, 60_000)).allowed, true);
      now += 1000;
    }
    // 5 counted at 0..4 s; with a limit of 3, the count drops below 3 when the one at 2 s leaves.
    assert.deepEqual(await s.hit('k', 3, 60_000), { allowed: false, remaining: 0, resetMs: 57_000 });
  });
});

for (const target of dbTargets()) {
  describe(`fail open when Redis goes away mid-test [${target.name}]`, () => {
    let redis: RedisServer;
    let h: Harness;
    const warnings: string[] = [];
    before(async () => {
      redis = await startRedisServer();
      const sink = new Writable({
        write(chunk, _enc, cb) {
          const line = JSON.parse(String(chunk));
          if (line.level === 40) warnings.push(line.msg);
          cb();
        },
      });
      // No store passed: buildApp makes its own Redis store from the configuration, as in production.
      h = await startHarness(
        target,
        // 500 ms rather than the default 100: a loaded test machine must not fail open while Redis is up.
        { redisUrl: redis.url, rateLimitTimeoutMs: 500 },
        { rateLimitStore: undefined, logger: pino({ level: 'warn' }, sink) },
      );
    });
    after(async () => {
      await h?.close();
      await redis?.stop();
    });

    async function failOpens(): Promise<number> {
      const m = await h.app.ctx.metrics.rateLimitFailOpen.get();
      return m.values.reduce((n, v) => n + v.value, 0);
    }

    test('requests keep succeeding, each answered quickly, and the fail-open metric rises', async () => {
      const biz = await createBusiness(h.app);
      const key = await createKey(h.app, biz.slug);
      // Counted by Redis while it is there.
      for (let i = 0; i < 5; i++) {
        const r = await api(h.app, key.secret, 'GET', '/subscription');
        assert.equal(r.status, 200);
        assertHeaders(r, 'subscription', 60, 60 - i - 1, `request ${i + 1} with Redis up`);
      }
      assert.equal(await failOpens(), 0);

      // Frozen: the connection stays open but nothing answers; each check gives up after the timeout.
      redis.pause();
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const r = await api(h.app, key.secret, 'GET', '/subscription');
        const ms = performance.now() - started;
        assert.equal(r.status, 200, r.raw);
        assert.ok(ms < 3000, `answered in ${ms.toFixed(0)} ms with Redis frozen`);
        assert.equal(r.headers['ratelimit-policy'], '"subscription";q=60;w=60');
        assert.equal(r.headers.ratelimit, undefined, 'no remaining count when nothing was counted');
      }
      const afterFreeze = await failOpens();
      assert.equal(afterFreeze, 5);
      const timeouts = (await h.app.ctx.metrics.rateLimitFailOpen.get()).values.find((v) => v.labels.reason === 'timeout');
      assert.ok(timeouts && timeouts.value >= 1, 'timeouts are labelled as such');

      // Killed: the connection is gone and there is no offline queue, so checks fail at once.
      await redis.stop();
      const n = 80; // more than the limit of 60: nothing is counted while Redis is gone
      for (let i = 0; i < n; i++) {
        const started = performance.now();
        const r = await api(h.app, key.secret, 'GET', '/subscription');
        const ms = performance.now() - started;
        assert.equal(r.status, 200, r.raw);
        assert.ok(ms < 3000, `answered in ${ms.toFixed(0)} ms with Redis stopped`);
      }
      assert.equal(await failOpens(), afterFreeze + n);
      const text = await h.app.ctx.metrics.registry.metrics();
      assert.match(text, /rate_limit_fail_open_total\{store="redis",reason="error"\} \d+/);
      // Warnings are throttled: a handful of lines, not one per request.
      const failOpenWarnings = warnings.filter((w) => w.startsWith('rate-limit store failed'));
      assert.ok(failOpenWarnings.length >= 1, 'the failure is logged');
      assert.ok(failOpenWarnings.length <= 3, `${failOpenWarnings.length} fail-open warnings for ${n + 5} requests`);
    });
  });
}

describe('buildApp closes its own Redis connection when a later set-up step throws', () => {
  let redis: RedisServer;
  before(async () => {
    redis = await startRedisServer();
  });
  after(() => redis?.stop());

  test('the connection it opened is gone once buildApp has rejected', async () => {
    const db = await dbTargets()[0]!.open();
    const probe = new Redis(redis.url, { maxRetriesPerRequest: 0 });
    try {
      const info = async (field: string) => Number(new RegExp(`${field}:(\\d+)`).exec(await probe.info())![1]);
      const connectionsBefore = await info('total_connections_received');
      let reached = false;
      // The OpenAPI document reads publicBaseUrl after the rate-limit store is open (a passed
      // deposits provider keeps the context from reading it earlier): make that step throw.
      const config = Object.defineProperty({ ...testConfig({ redisUrl: redis.url }) }, 'publicBaseUrl', {
        get() {
          reached = true;
          throw new Error('set-up step failed');
        },
      });
      await assert.rejects(
        buildApp({ config, db, logger: false, deposits: { createPaymentLink: async () => 'https://pay.example/x' } }),
        /set-up step failed/,
      );
      assert.ok(reached, 'set-up failed at the step after the store opened');
      assert.equal(await info('total_connections_received'), connectionsBefore + 1, 'buildApp had connected to Redis');
      // Only the probe is left once the app's connection has been closed.
      const deadline = Date.now() + 5000;
      while ((await info('connected_clients')) > 1 && Date.now() < deadline) await sleep(50);
      assert.equal(await info('connected_clients'), 1, "buildApp's Redis connection is still open");
    } finally {
      probe.disconnect();
      await db.close();
    }
  });
});
