/**
 * The account limits hold without Redis (src/rate-limit/account-limiter.ts): with REDIS_URL naming
 * a Redis nobody listens on, or one that is frozen (connected, never answering), sign-in and
 * invitation acceptance are still refused after 10 tries per email and address, and password
 * reset requests after 5 per email, counted in process; the public API keeps failing open; /readyz stays 200 and says Redis is degraded, and ok
 * again once it answers.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { randomUUID } from 'node:crypto';
import { createLogger } from '../src/logger.ts';
import { RedisRateLimitStore } from '../src/rate-limit/redis-store.ts';
import { PASSWORD_RESET_PER_EMAIL, SIGN_IN_PER_EMAIL_AND_ADDRESS } from '../src/use-cases/accounts/sign-in-limit.ts';
import { dbTargets, type DbTarget } from './helpers/databases.ts';
import { api, createBusiness, createKey } from './helpers/fixtures.ts';
import { call, startHarness, type Harness, type JsonResponse } from './helpers/harness.ts';
import { accept, invite, tokenOf } from './helpers/invitations.ts';
import { insertMember, ownOrigin } from './helpers/members.ts';
import { freePort, startRedisServer, type RedisServer } from './helpers/processes.ts';
import { startSmtp, type SmtpSink } from './helpers/smtp.ts';

function signIn(h: Harness, email: string, password: string): Promise<JsonResponse> {
  return call(h.app, { method: 'POST', url: '/admin/v1/session', payload: { email, password } });
}

function assertRefused(r: JsonResponse, what: string): void {
  assert.equal(r.status, 429, `${what}: ${r.raw}`);
  assert.equal(r.body.error.code, 'rate_limit.exceeded');
  assert.ok(Number(r.headers['retry-after']) >= 1, `${what}: Retry-After ${r.headers['retry-after']}`);
  assert.equal(r.headers['cache-control'], 'no-store', `${what}: no-store`);
}

async function readiness(h: Harness): Promise<{ status: string; checks: { database: string; redis: string } }> {
  const r = await call(h.app, { url: '/readyz' });
  assert.equal(r.status, 200, r.raw);
  return r.body.data;
}

/** A harness whose app makes its own store from REDIS_URL, as in production, logging warnings into `lines`. */
async function harnessWithRedisAt(target: DbTarget, redisUrl: string, lines: string[], smtpUrl: string) {
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  // 300 ms rather than the default 100: a loaded test machine must not fall back while Redis is up.
  return startHarness(
    target,
    { redisUrl, smtpUrl, rateLimitTimeoutMs: 300 },
    { rateLimitStore: undefined, logger: createLogger('warn', sink) },
  );
}

/**
 * Only failures use up the sign-in limit: a receptionist signing in all day is never locked out, and
 * once the limit is reached even the right password waits. The 429 says the wait in minutes.
 */
async function rightSignInsDoNotCount(h: Harness): Promise<void> {
  const business = await createBusiness(h.app);
  const member = await insertMember(h.db, business.id, 'owner');
  for (let i = 0; i < SIGN_IN_PER_EMAIL_AND_ADDRESS + 5; i++) {
    assert.equal((await signIn(h, member.email, member.password)).status, 200, `right sign-in ${i + 1}`);
  }
  for (let i = 0; i < SIGN_IN_PER_EMAIL_AND_ADDRESS; i++) {
    assert.equal((await signIn(h, member.email, 'wrong password')).status, 401, `wrong try ${i + 1} after the right ones`);
  }
  const refused = await signIn(h, member.email, 'wrong password');
  assertRefused(refused, `wrong try ${SIGN_IN_PER_EMAIL_AND_ADDRESS + 1}`);
  assert.match(refused.body.error.message, /^Too many sign-in attempts\. Try again in (1 minute|\d+ minutes)\.$/);
  assert.doesNotMatch(refused.body.error.message, / s\.$/);
  assertRefused(await signIn(h, member.email, member.password), 'the right password once the limit is reached');
}

/** The limits a failing Redis must not lift, for sign-in and for invitation acceptance. */
function limitTests(get: () => { h: Harness; lines: string[] }): void {
  test('sign-in is refused after 10 tries per email and address, counted in process', async () => {
    const { h, lines } = get();
    const business = await createBusiness(h.app);
    const member = await insertMember(h.db, business.id, 'owner');
    for (let i = 0; i < SIGN_IN_PER_EMAIL_AND_ADDRESS; i++) {
      const r = await signIn(h, member.email, 'wrong password');
      assert.equal(r.status, 401, `try ${i + 1}: ${r.raw}`);
    }
    assertRefused(await signIn(h, member.email, 'wrong password'), 'try 11');
    assertRefused(await signIn(h, member.email, member.password), 'the right password after 10 tries');
    // Another account from the same address is not locked by this one's tries.
    const other = await insertMember(h.db, business.id, 'frontDesk');
    assert.equal((await signIn(h, other.email, other.password)).status, 200);
    // Logged, throttled, without the email or the counter keys.
    const fallbacks = lines.filter((l) => l.includes('counting in this process instead'));
    assert.ok(fallbacks.length >= 1, 'the fallback is logged');
    assert.ok(fallbacks.length <= 2, `${fallbacks.length} warnings for ${SIGN_IN_PER_EMAIL_AND_ADDRESS + 3} sign-ins`);
    for (const l of lines) {
      assert.ok(!l.includes(member.email) && !l.includes('signin-'), `a log line names the account: ${l}`);
    }
  });

  test('invitation acceptance is refused after 10 tries of an existing account’s password', async () => {
    const { h } = get();
    const home = await createBusiness(h.app);
    const member = await insertMember(h.db, home.id, 'owner');
    const other = await createBusiness(h.app);
    const token = tokenOf((await invite(h.app, other.slug, member.email, 'frontDesk')).acceptUrl);
    for (let i = 0; i < SIGN_IN_PER_EMAIL_AND_ADDRESS; i++) {
      const r = await accept(h.app, { token, password: 'wrong password' });
      assert.equal(r.status, 401, `try ${i + 1}: ${r.raw}`);
    }
    assertRefused(await accept(h.app, { token, password: member.password }), 'try 11 with the right password');
  });

  test('password reset requests are refused after 5 per email, counted in process', async () => {
    const { h } = get();
    const business = await createBusiness(h.app);
    const member = await insertMember(h.db, business.id, 'owner');
    const reset = () =>
      call(h.app, {
        method: 'POST',
        url: '/admin/v1/password-reset',
        headers: { origin: ownOrigin(h.app) },
        payload: { email: member.email },
      });
    for (let i = 0; i < PASSWORD_RESET_PER_EMAIL; i++) {
      const r = await reset();
      assert.equal(r.status, 202, `request ${i + 1}: ${r.raw}`);
    }
    assertRefused(await reset(), `request ${PASSWORD_RESET_PER_EMAIL + 1}`);
  });

  test('the public API still fails open', async () => {
    const { h } = get();
    const business = await createBusiness(h.app);
    const key = await createKey(h.app, business.slug);
    const r = await api(h.app, key.secret, 'GET', '/subscription');
    assert.equal(r.status, 200, r.raw);
    assert.equal(r.headers.ratelimit, undefined, 'not counted');
  });
}

for (const target of dbTargets()) {
  describe(`account limits with Redis unreachable [${target.name}]`, () => {
    let h: Harness;
    let smtp: SmtpSink;
    const lines: string[] = [];
    before(async () => {
      smtp = await startSmtp();
      // A port nobody listens on: every command fails at once (no offline queue).
      h = await harnessWithRedisAt(target, `redis://127.0.0.1:${await freePort()}`, lines, smtp.url);
    });
    after(async () => {
      await h?.close();
      await smtp?.close();
    });

    test('/readyz stays 200 and says Redis is degraded', async () => {
      assert.deepEqual(await readiness(h), { status: 'ready', checks: { database: 'ok', redis: 'degraded' } });
    });
    limitTests(() => ({ h, lines }));
  });

  describe(`account limits with Redis frozen [${target.name}]`, () => {
    let redis: RedisServer;
    let h: Harness;
    let smtp: SmtpSink;
    const lines: string[] = [];
    before(async () => {
      redis = await startRedisServer();
      smtp = await startSmtp();
      h = await harnessWithRedisAt(target, redis.url, lines, smtp.url);
    });
    after(async () => {
      // Thawed first: closing the app waits for Redis to answer its QUIT.
      redis?.resume();
      await h?.close();
      await redis?.stop();
      await smtp?.close();
    });

    test('/readyz says ok while Redis answers', async () => {
      assert.deepEqual(await readiness(h), { status: 'ready', checks: { database: 'ok', redis: 'ok' } });
    });

    test('frozen: /readyz says degraded, within about the rate-limit timeout', async () => {
      redis.pause();
      const started = performance.now();
      assert.equal((await readiness(h)).checks.redis, 'degraded');
      assert.ok(performance.now() - started < 3000, 'the check gives up after the timeout');
    });

    limitTests(() => ({ h, lines }));

    test('answering again: /readyz says ok', async () => {
      redis.resume();
      // ioredis may have dropped the connection while it was frozen; give it a moment to be back.
      const end = Date.now() + 10_000;
      let last = '';
      while (Date.now() < end) {
        last = (await readiness(h)).checks.redis;
        if (last === 'ok') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.equal(last, 'ok');
    });
  });

  describe(`/readyz without Redis [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
    });
    after(() => h?.close());

    test('Redis is absent', async () => {
      assert.deepEqual(await readiness(h), { status: 'ready', checks: { database: 'ok', redis: 'absent' } });
    });
  });

  describe(`account limits without Redis [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      // The store buildApp makes from the configuration: in process, with the real limits.
      h = await startHarness(target, {}, { rateLimitStore: undefined });
    });
    after(() => h?.close());

    test('right sign-ins do not count; the wait is said in minutes', () => rightSignInsDoNotCount(h));

    test('the public API’s one-minute sweep does not drop the 15-minute sign-in counters', async () => {
      const business = await createBusiness(h.app);
      const member = await insertMember(h.db, business.id, 'owner');
      for (let i = 0; i < SIGN_IN_PER_EMAIL_AND_ADDRESS; i++) {
        assert.equal((await signIn(h, member.email, 'wrong password')).status, 401, `try ${i + 1}`);
      }
      // Two minutes on, well inside the 15-minute window, the public store sweeps (every 10,000
      // hits) what its callers' one-minute window has left behind.
      h.clock.now = new Date(h.clock.now.getTime() + 2 * 60_000);
      for (let i = 0; i < 10_000; i++) await h.app.ctx.rateLimits.hit(`sweep-${i % 10}`, 1_000_000, 60_000);
      assertRefused(await signIn(h, member.email, 'wrong password'), 'try 11, after the sweep');
    });
  });

  describe(`account limits in Redis [${target.name}]`, { skip: process.env.REDIS_URL ? false : 'REDIS_URL is not set' }, () => {
    let h: Harness;
    let store: RedisRateLimitStore;
    before(async () => {
      store = new RedisRateLimitStore(process.env.REDIS_URL!, { prefix: `test:acct:${randomUUID()}:`, commandTimeoutMs: 2000 }, () => {});
      h = await startHarness(target, {}, { rateLimitStore: store });
    });
    after(async () => {
      await h?.close();
      await store?.close();
    });

    test('right sign-ins do not count; the wait is said in minutes', () => rightSignInsDoNotCount(h));
  });
}
