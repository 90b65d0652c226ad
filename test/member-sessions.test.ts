/**
 * Member sign-in and sessions (business-side.md "Accounts and sessions"): the cookie's form, what is
 * stored, expiry, sign-out on every instance, the CSRF rule for cookie writes, and the sign-in limits.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.ts';
import type { App } from '../src/http/context.ts';
import { dbTargets } from './helpers/databases.ts';
import { adminOk, call, startHarness, testConfig, type Harness } from './helpers/harness.ts';
import { createBusiness, createSalon } from './helpers/fixtures.ts';
import { asMember, cookiePair, insertMember, MEMBER_PASSWORD, memberCookie, ownOrigin } from './helpers/members.ts';

function assertError(r: { status: number; body: any; raw: string }, status: number, code: string): void {
  assert.equal(r.status, status, r.raw);
  assert.equal(r.body.ok, false, r.raw);
  assert.equal(r.body.error.code, code, r.raw);
}

const signInCall = (app: App, email: string, password: string, headers: Record<string, string> = {}) =>
  call(app, { method: 'POST', url: '/admin/v1/session', payload: { email, password }, headers });

for (const target of dbTargets()) {
  describe(`member sessions [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
    });
    after(() => h.close());

    test('sign-in answers the member and sets an HttpOnly, SameSite=Lax, Path=/ cookie whose value is stored only as a hash', async () => {
      const biz = await createBusiness(h.app);
      const m = await insertMember(h.db, biz.id, 'manager');
      const r = await signInCall(h.app, m.email.toUpperCase(), m.password);
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(r.body.data.member, {
        id: m.userId,
        email: m.email,
        name: r.body.data.member.name,
        language: 'en',
        memberships: [{ salonSlug: biz.slug, businessName: `Salon ${biz.slug}`, role: 'manager' }],
      });
      const setCookie = String(r.headers['set-cookie']);
      assert.match(setCookie, /^bk_session=[A-Za-z0-9_-]{43};/);
      assert.match(setCookie, /; HttpOnly/i);
      assert.match(setCookie, /; SameSite=Lax/i);
      assert.match(setCookie, /; Path=\//);
      assert.doesNotMatch(setCookie, /; Secure/i, 'not Secure on an http base URL');
      const value = cookiePair(r.headers['set-cookie']).split('=')[1]!;
      const rows = (await h.db.query<any>('SELECT token_hash FROM member_sessions WHERE user_id = $1', [m.userId])).rows;
      assert.equal(rows.length, 1);
      assert.equal(rows[0].token_hash, createHash('sha256').update(value).digest('hex'));
      assert.ok(!r.raw.includes(value), 'the cookie value is not in the body');
      assert.ok(!r.raw.includes(m.password) && !r.raw.includes('scrypt$'), 'no password or hash in the body');
    });

    test('GET /session answers the signed-in member; without a session it is 401 auth.invalid_key', async () => {
      const biz = await createBusiness(h.app);
      const m = await memberCookie(h.app, h.db, biz.id, 'frontDesk');
      const r = await asMember(h.app, m.cookie, 'GET', '/session');
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.member.id, m.userId);
      assert.equal(r.body.data.member.memberships[0].role, 'frontDesk');
      assertError(await call(h.app, { method: 'GET', url: '/admin/v1/session' }), 401, 'auth.invalid_key');
      assertError(await asMember(h.app, 'bk_session=garbage', 'GET', '/session'), 401, 'auth.invalid_key');
      assertError(await asMember(h.app, `bk_session=${'A'.repeat(43)}`, 'GET', '/session'), 401, 'auth.invalid_key');
    });

    test('a wrong password, an unknown email and an account without membership answer exactly alike', async () => {
      const biz = await createBusiness(h.app);
      const m = await insertMember(h.db, biz.id, 'owner');
      const loner = await insertMember(h.db, biz.id, 'owner');
      await h.db.query('DELETE FROM memberships WHERE user_id = $1', [loner.userId]);
      const answers = [
        await signInCall(h.app, m.email, 'not the password'),
        await signInCall(h.app, `nobody-${Date.now()}@example.com`, m.password),
        await signInCall(h.app, loner.email, loner.password),
      ];
      for (const r of answers) {
        assertError(r, 401, 'auth.invalid_key');
        assert.equal(r.headers['set-cookie'], undefined);
      }
      assert.equal(answers[0]!.body.error.message, answers[1]!.body.error.message);
      assert.equal(answers[0]!.body.error.message, answers[2]!.body.error.message);
    });

    test('a malformed sign-in body is 400 request.validation_failed', async () => {
      assertError(await signInCall(h.app, 'not-an-email', MEMBER_PASSWORD), 400, 'request.validation_failed');
      assertError(await signInCall(h.app, 'a@example.com', 'x'.repeat(201)), 400, 'request.validation_failed');
    });

    test('sign-out ends the session on the server: the old cookie is refused even if kept', async () => {
      const biz = await createBusiness(h.app);
      const m = await memberCookie(h.app, h.db, biz.id, 'owner');
      const out = await asMember(h.app, m.cookie, 'DELETE', '/session');
      assert.equal(out.status, 200, out.raw);
      assert.match(String(out.headers['set-cookie']), /^bk_session=;/);
      assertError(await asMember(h.app, m.cookie, 'GET', '/session'), 401, 'auth.invalid_key');
      assertError(await asMember(h.app, m.cookie, 'GET', `/businesses/${biz.slug}`), 401, 'auth.invalid_key');
    });

    test('sign-out on one instance is seen by the very next request on another', async () => {
      const other = await buildApp({ config: testConfig(), db: h.db, logger: false });
      try {
        const biz = await createBusiness(h.app);
        const m = await memberCookie(h.app, h.db, biz.id, 'owner');
        assert.equal((await asMember(other, m.cookie, 'GET', `/businesses/${biz.slug}`)).status, 200);
        assert.equal((await asMember(h.app, m.cookie, 'DELETE', '/session')).status, 200);
        assertError(await asMember(other, m.cookie, 'GET', `/businesses/${biz.slug}`), 401, 'auth.invalid_key');
      } finally {
        await other.close();
      }
    });

    test('12 hours without a request end a session; 30 days end it whatever its use', async () => {
      const biz = await createBusiness(h.app);
      const idle = await memberCookie(h.app, h.db, biz.id, 'owner');
      await h.db.query(`UPDATE member_sessions SET last_seen_at = now() - interval '11 hours 58 minutes' WHERE user_id = $1`, [
        idle.userId,
      ]);
      assert.equal((await asMember(h.app, idle.cookie, 'GET', '/session')).status, 200, 'still alive just under 12 h');
      const seen = (await h.db.query<any>('SELECT last_seen_at FROM member_sessions WHERE user_id = $1', [idle.userId])).rows[0];
      assert.ok(Date.now() - new Date(seen.last_seen_at).getTime() < 60_000, 'a request moves last_seen_at');
      await h.db.query(`UPDATE member_sessions SET last_seen_at = now() - interval '12 hours 1 second' WHERE user_id = $1`, [idle.userId]);
      assertError(await asMember(h.app, idle.cookie, 'GET', '/session'), 401, 'auth.invalid_key');

      const old = await memberCookie(h.app, h.db, biz.id, 'owner');
      const row = (await h.db.query<any>('SELECT created_at, expires_at FROM member_sessions WHERE user_id = $1', [old.userId])).rows[0];
      const days = (new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()) / 86_400_000;
      assert.ok(Math.abs(days - 30) < 0.01, `absolute lifetime ${days} days`);
      await h.db.query(`UPDATE member_sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [old.userId]);
      assertError(await asMember(h.app, old.cookie, 'GET', '/session'), 401, 'auth.invalid_key');
    });

    test('a member sees only their own businesses in GET /businesses', async () => {
      const mine = await createBusiness(h.app);
      const theirs = await createBusiness(h.app);
      const m = await memberCookie(h.app, h.db, mine.id, 'frontDesk');
      const r = await asMember(h.app, m.cookie, 'GET', '/businesses');
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(
        r.body.data.businesses.map((b: any) => b.slug),
        [mine.slug],
      );
      assert.ok(!r.raw.includes(theirs.slug));
    });

    describe('cross-site writes (CSRF)', () => {
      const location = (slug: string) => ({
        slug,
        name: 'Csrf',
        timezone: 'Europe/Budapest',
        address: { city: 'Budapest', street: 'Fő utca 1', zip: '1011' },
      });
      const slugs = async (bizSlug: string) =>
        ((await adminOk(h.app, 'GET', `/businesses/${bizSlug}/locations`)).locations as any[]).map((l) => l.slug);

      test('a cookie write from a foreign origin, or naming none, is 403 auth.origin_denied and changes nothing', async () => {
        const biz = await createBusiness(h.app);
        const m = await memberCookie(h.app, h.db, biz.id, 'owner');
        const foreign = await asMember(
          h.app,
          m.cookie,
          'POST',
          `/businesses/${biz.slug}/locations`,
          location('evil'),
          'https://evil.example',
        );
        assertError(foreign, 403, 'auth.origin_denied');
        const none = await asMember(h.app, m.cookie, 'POST', `/businesses/${biz.slug}/locations`, location('none'), null);
        assertError(none, 403, 'auth.origin_denied');
        const nullOrigin = await asMember(h.app, m.cookie, 'POST', `/businesses/${biz.slug}/locations`, location('null'), 'null');
        assertError(nullOrigin, 403, 'auth.origin_denied');
        const foreignReferer = await call(h.app, {
          method: 'POST',
          url: `/admin/v1/businesses/${biz.slug}/locations`,
          headers: { cookie: m.cookie, referer: 'https://evil.example/form' },
          payload: location('ref'),
        });
        assertError(foreignReferer, 403, 'auth.origin_denied');
        assert.deepEqual(await slugs(biz.slug), []);
        const signOut = await asMember(h.app, m.cookie, 'DELETE', '/session', undefined, 'https://evil.example');
        assertError(signOut, 403, 'auth.origin_denied');
        assert.equal((await asMember(h.app, m.cookie, 'GET', '/session')).status, 200, 'the session survived the foreign sign-out');
      });

      test('the same write from our own origin, or with our Referer, goes through; reads need no origin', async () => {
        const biz = await createBusiness(h.app);
        const m = await memberCookie(h.app, h.db, biz.id, 'manager');
        assert.equal((await asMember(h.app, m.cookie, 'POST', `/businesses/${biz.slug}/locations`, location('own'))).status, 200);
        const byReferer = await call(h.app, {
          method: 'POST',
          url: `/admin/v1/businesses/${biz.slug}/locations`,
          headers: { cookie: m.cookie, referer: `${ownOrigin(h.app)}/dashboard/locations` },
          payload: location('referer'),
        });
        assert.equal(byReferer.status, 200, byReferer.raw);
        assert.equal((await asMember(h.app, m.cookie, 'GET', `/businesses/${biz.slug}/locations`, undefined, null)).status, 200);
        assert.deepEqual((await slugs(biz.slug)).sort(), ['own', 'referer']);
      });

      test('the platform token is not a cookie: its writes need no origin', async () => {
        const biz = await createBusiness(h.app);
        const r = await call(h.app, {
          method: 'POST',
          url: `/admin/v1/businesses/${biz.slug}/locations`,
          headers: { authorization: 'Bearer test-admin-token-0123456789', origin: 'https://evil.example' },
          payload: location('token'),
        });
        assert.equal(r.status, 200, r.raw);
      });

      test('a sign-in posted by a foreign page is refused (login CSRF); one that names no origin is not', async () => {
        const biz = await createBusiness(h.app);
        const m = await insertMember(h.db, biz.id, 'owner');
        assertError(await signInCall(h.app, m.email, m.password, { origin: 'https://evil.example' }), 403, 'auth.origin_denied');
        assert.equal((await signInCall(h.app, m.email, m.password, { origin: ownOrigin(h.app) })).status, 200);
        assert.equal((await signInCall(h.app, m.email, m.password)).status, 200);
      });
    });
  });

  describe(`session cookie on an https base URL [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target, { publicBaseUrl: 'https://salon.example' });
    });
    after(() => h.close());

    test('is Secure and __Host- prefixed, and the origin rule names the https origin', async () => {
      const biz = await createBusiness(h.app);
      const m = await insertMember(h.db, biz.id, 'owner');
      const r = await signInCall(h.app, m.email, m.password);
      assert.equal(r.status, 200, r.raw);
      const setCookie = String(r.headers['set-cookie']);
      assert.match(setCookie, /^__Host-bk_session=/);
      assert.match(setCookie, /; Secure/i);
      const cookie = cookiePair(r.headers['set-cookie']);
      assertError(await asMember(h.app, cookie, 'DELETE', '/session', undefined, 'http://salon.example'), 403, 'auth.origin_denied');
      assert.equal((await asMember(h.app, cookie, 'DELETE', '/session', undefined, 'https://salon.example')).status, 200);
    });
  });

  describe(`sign-in limits (the real limiter) [${target.name}]`, () => {
    // A harness per test: the limits count per client address, and inject's is always 127.0.0.1.
    test('10 attempts per email per 15 minutes; the 11th is 429 with Retry-After, even with the right password', async () => {
      const h = await startHarness(target, {}, { rateLimitStore: undefined });
      try {
        const biz = await createBusiness(h.app);
        const m = await insertMember(h.db, biz.id, 'owner');
        for (let i = 0; i < 10; i++) assertError(await signInCall(h.app, m.email, `wrong password ${i}`), 401, 'auth.invalid_key');
        const limited = await signInCall(h.app, m.email, m.password);
        assertError(limited, 429, 'rate_limit.exceeded');
        const retryAfter = Number(limited.headers['retry-after']);
        assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After ${retryAfter}`);
        assert.equal(limited.headers['set-cookie'], undefined);
        // Another email from the same address is not held back by this one's limit.
        const other = await insertMember(h.db, biz.id, 'owner');
        assert.equal((await signInCall(h.app, other.email, other.password)).status, 200);
        // Nor is the account's owner at another address: an attacker who knows an email cannot
        // lock its owner out from one place.
        const elsewhere = await call(h.app, {
          method: 'POST',
          url: '/admin/v1/session',
          payload: { email: m.email, password: m.password },
          remoteAddress: '203.0.113.9',
        });
        assert.equal(elsewhere.status, 200, elsewhere.raw);
      } finally {
        await h.close();
      }
    });

    test('50 attempts per client address per 15 minutes, whatever the emails', async () => {
      const h = await startHarness(target, {}, { rateLimitStore: undefined });
      try {
        const attempts = [];
        for (let i = 0; i < 50; i++) attempts.push(signInCall(h.app, `spray-${i}-${Date.now()}@example.com`, 'guess guess guess'));
        for (const r of await Promise.all(attempts)) assertError(r, 401, 'auth.invalid_key');
        const limited = await signInCall(h.app, `spray-last-${Date.now()}@example.com`, 'guess guess guess');
        assertError(limited, 429, 'rate_limit.exceeded');
        assert.ok(Number(limited.headers['retry-after']) > 0);
      } finally {
        await h.close();
      }
    });
  });
}

describe('a salon member reads their day with the cookie alone', () => {
  const [target] = dbTargets();
  let h: Harness;
  before(async () => {
    h = await startHarness(target!);
  });
  after(() => h.close());

  test('the agenda and the booking list answer a frontDesk member', async () => {
    const salon = await createSalon(h.app);
    const m = await memberCookie(h.app, h.db, salon.business.id, 'frontDesk');
    const agenda = await asMember(
      h.app,
      m.cookie,
      'GET',
      `/businesses/${salon.business.slug}/agenda?locationSlug=${salon.location.slug}&date=2030-01-07`,
    );
    assert.equal(agenda.status, 200, agenda.raw);
    assert.equal(agenda.body.data.agenda.staff.length, 2);
    assert.equal((await asMember(h.app, m.cookie, 'GET', `/businesses/${salon.business.slug}/bookings`)).status, 200);
  });
});
