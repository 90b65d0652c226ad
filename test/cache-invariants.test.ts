/**
 * The caches of src/cache/ never answer from a stale entry (issue 16; docs/architecture.md "Caches
 * and their invalidation"): a write answered by one instance is seen by the very next request on the
 * other. Two buildApp instances, each with its own PostgreSQL pool and its own Redis connection, on
 * one database and one Redis (when DATABASE_URL and REDIS_URL are set); and one PGlite process
 * without Redis, where the versions live in the process.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.ts';
import { hashSecret } from '../src/domain/api-key-secret.ts';
import type { App } from '../src/http/context.ts';
import { RedisRateLimitStore } from '../src/rate-limit/redis-store.ts';
import type { Db } from '../src/store/db.ts';
import { PostgresDb } from '../src/store/postgres-db.ts';
import { dbTargets } from './helpers/databases.ts';
import { adminOk, admin, startHarness, testConfig, type Harness } from './helpers/harness.ts';
import { useTwoInstances } from './helpers/two-instances.ts';
import { api, createKey, createSalon, createStaff, uniqueSlug, type SalonFixture } from './helpers/fixtures.ts';
import { addMember } from './helpers/members.ts';
import { CONSENT } from './helpers/bookings.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

interface World {
  /** the instance that writes */
  a: App;
  /** the instance that reads */
  b: App;
  /** a's database handle (writes made outside the API go through it) */
  db: Db;
}

const services = (app: App, s: SalonFixture, key = s.key.secret) =>
  api(app, key, 'GET', `/services?salonSlug=${s.business.slug}&locationSlug=${s.location.slug}`);
const staff = (app: App, s: SalonFixture, key = s.key.secret) =>
  api(app, key, 'GET', `/staff?salonSlug=${s.business.slug}&locationSlug=${s.location.slug}`);

/** Reads on b until its key and answers are in memory (the first read fills, the second is served). */
async function warm(b: App, s: SalonFixture, key = s.key.secret): Promise<void> {
  for (let i = 0; i < 2; i++) {
    assert.equal((await services(b, s, key)).status, 200);
    assert.equal((await staff(b, s, key)).status, 200);
  }
  assert.ok(b.ctx.caches.cachedKey(hashSecret(key)), 'the key is cached on b');
}

/** A local date `n` days from now in the salon's zone (Budapest; well inside its horizon). */
function daysAhead(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Europe/Budapest' });
}

const search = (app: App, s: SalonFixture, date: string, staffId?: string) =>
  api(app, s.key.secret, 'POST', '/availability/search', {
    salonSlug: s.business.slug,
    locationSlug: s.location.slug,
    serviceId: s.service.id,
    ...(staffId ? { staffId } : {}),
    dateRange: { from: date, to: date },
  });

function offered(r: { status: number; raw: string; body: any }, date: string, startTime: string, staffId: string): boolean {
  assert.equal(r.status, 200, r.raw);
  return r.body.data.slots.some((x: any) => x.date === date && x.startTime === startTime && x.staffId === staffId);
}

const book = (app: App, s: SalonFixture, date: string, startTime: string, staffId: string) =>
  api(
    app,
    s.key.secret,
    'POST',
    '/bookings',
    {
      salonSlug: s.business.slug,
      locationSlug: s.location.slug,
      serviceId: s.service.id,
      expectedPricingVersion: s.service.pricingVersion,
      staffId,
      slot: { date, startTime },
      guest: { name: 'Kiss Éva', phone: '+36 30 765 4321', email: 'guest@example.com' },
      consent: { ...CONSENT, acceptedAt: new Date().toISOString() },
    },
    { 'idempotency-key': randomUUID() },
  );

/** Records every database call the app makes until stopped (a warm answer must make none). */
function countQueries(app: App): { seen: string[]; stop: () => void } {
  const db = app.ctx.db;
  const seen: string[] = [];
  const { query, transaction } = db;
  db.query = ((sql: string, params?: readonly unknown[]) => {
    seen.push(sql.slice(0, 80));
    return query.call(db, sql, params);
  }) as typeof db.query;
  db.transaction = ((fn: any, ...rest: any[]) => {
    seen.push('transaction');
    return (transaction as any).call(db, fn, ...rest);
  }) as typeof db.transaction;
  return {
    seen,
    stop: () => {
      db.query = query;
      db.transaction = transaction;
    },
  };
}

function invariants(world: () => World): void {
  test('a key revoked on one instance is refused (401) on the very next request on the other', async () => {
    const { a, b } = world();
    const s = await createSalon(a);
    await warm(b, s);
    await adminOk(a, 'DELETE', `/api-keys/${s.key.id}`);
    const r = await services(b, s);
    assert.equal(r.status, 401, r.raw);
    assert.equal(r.body.error.code, 'auth.invalid_key');
  });

  test('a removed member’s personal key is refused on the very next request on the other instance', async () => {
    const { a, b, db } = world();
    const s = await createSalon(a);
    const userId = uniqueSlug('user');
    await addMember(db, s.business.id, userId);
    const personal = await createKey(a, s.business.slug, { type: 'personal', userId, capabilities: ['services.read', 'staff.read'] });
    await warm(b, s, personal.secret);
    const rm = await admin(a, 'DELETE', `/businesses/${s.business.slug}/members/${encodeURIComponent(userId)}`);
    assert.equal(rm.status, 200, rm.raw);
    const r = await services(b, s, personal.secret);
    assert.equal(r.status, 401, r.raw);
  });

  test('a plan status without API access is refused (403) on the very next request, and allowed again after', async () => {
    const { a, b } = world();
    const s = await createSalon(a);
    await warm(b, s);
    await adminOk(a, 'PATCH', `/businesses/${s.business.slug}/subscription`, { status: 'unpaid' });
    const r = await services(b, s);
    assert.equal(r.status, 403, r.raw);
    assert.equal(r.body.error.code, 'auth.plan_insufficient');
    await adminOk(a, 'PATCH', `/businesses/${s.business.slug}/subscription`, { status: 'active' });
    assert.equal((await services(b, s)).status, 200);
  });

  test('a key past its expiry is refused though cached', async () => {
    const { a, b } = world();
    const s = await createSalon(a);
    const soon = await createKey(a, s.business.slug, { expiresAt: new Date(Date.now() + 2500).toISOString() });
    await warm(b, s, soon.secret);
    await new Promise((r) => setTimeout(r, Math.max(0, 2600 - 0)));
    assert.equal((await services(b, s, soon.secret)).status, 401);
  });

  test('a service PATCH (name, price) is seen by the very next GET /v1/services on the other instance', async () => {
    const { a, b } = world();
    const s = await createSalon(a);
    await warm(b, s);
    await adminOk(a, 'PATCH', `/services/${s.service.id}`, { name: 'Renamed cut', price: { amount: 7777, currency: 'HUF' } });
    const r = await services(b, s);
    assert.equal(r.status, 200, r.raw);
    const seen = r.body.data.services.find((x: any) => x.id === s.service.id);
    assert.equal(seen.name, 'Renamed cut');
    assert.equal(seen.price.amount, 7777);
  });

  test('a service deactivated straight in the database (not through the API) is gone on the next read', async () => {
    const { b, db } = world();
    const s = await createSalon(world().a);
    await warm(b, s);
    await db.query('UPDATE services SET active = false WHERE id = $1', [s.manualService.id]);
    const r = await services(b, s);
    assert.ok(!r.body.data.services.some((x: any) => x.id === s.manualService.id), r.raw);
  });

  test('a staff PATCH (name, deactivation) is seen by the very next GET /v1/staff on the other instance', async () => {
    const { a, b } = world();
    const s = await createSalon(a);
    await warm(b, s);
    await adminOk(a, 'PATCH', `/staff/${s.staff[0]!.id}`, { name: 'Anna Renamed' });
    const r = await staff(b, s);
    assert.ok(
      r.body.data.staff.some((x: any) => x.name === 'Anna Renamed'),
      r.raw,
    );
    await adminOk(a, 'PATCH', `/staff/${s.staff[1]!.id}`, { active: false });
    const r2 = await staff(b, s);
    assert.ok(!r2.body.data.staff.some((x: any) => x.id === s.staff[1]!.id), r2.raw);
  });

  test('a slot booked (201) on one instance is not offered by any later search on the other; cancelled, it is offered again', async () => {
    const { a, b } = world();
    const s = await createSalon(a);
    const date = daysAhead(5);
    const anna = s.staff[0]!.id;
    for (let i = 0; i < 2; i++) assert.ok(offered(await search(b, s, date), date, '10:00', anna));
    const created = await book(a, s, date, '10:00', anna);
    assert.equal(created.status, 201, created.raw);
    assert.ok(!offered(await search(b, s, date), date, '10:00', anna), 'the booked slot is still offered on b');
    assert.ok(!offered(await search(b, s, date, anna), date, '10:00', anna), 'the booked slot is offered to a search for Anna');
    assert.ok(offered(await search(b, s, date), date, '10:00', s.staff[1]!.id), 'Bence is still free');
    const c = await api(a, s.key.secret, 'POST', `/bookings/${created.body.data.booking.bookingId}/cancel`, undefined, {
      'idempotency-key': randomUUID(),
    });
    assert.equal(c.status, 200, c.raw);
    assert.ok(offered(await search(b, s, date), date, '10:00', anna), 'the cancelled time is not offered again on b');
  });

  test('every booking in a row is missing from the other instance’s very next search', async () => {
    const { a, b } = world();
    const s = await createSalon(a);
    const date = daysAhead(6);
    const anna = s.staff[0]!.id;
    await search(b, s, date);
    for (const time of ['09:00', '09:30', '11:00', '13:30', '16:00']) {
      assert.ok(offered(await search(b, s, date), date, time, anna), `${time} offered before`);
      assert.equal((await book(a, s, date, time, anna)).status, 201);
      assert.ok(!offered(await search(b, s, date), date, time, anna), `${time} still offered after its 201`);
    }
  });

  test('a booking cancelled straight in the database (not through the API) frees its time on the next search', async () => {
    const { a, b, db } = world();
    const s = await createSalon(a);
    const date = daysAhead(7);
    const anna = s.staff[0]!.id;
    const created = await book(a, s, date, '14:00', anna);
    assert.equal(created.status, 201, created.raw);
    for (let i = 0; i < 2; i++) assert.ok(!offered(await search(b, s, date), date, '14:00', anna));
    await db.query(`UPDATE bookings SET status = 'cancelled' WHERE id = $1`, [created.body.data.booking.bookingId]);
    assert.ok(offered(await search(b, s, date), date, '14:00', anna));
  });

  test('time off added on one instance removes its slots from the other instance’s next search', async () => {
    const { a, b } = world();
    const s = await createSalon(a);
    const date = daysAhead(8);
    const anna = s.staff[0]!.id;
    for (let i = 0; i < 2; i++) assert.ok(offered(await search(b, s, date), date, '12:00', anna));
    await adminOk(a, 'POST', `/staff/${anna}/time-off`, { from: { date, time: '11:45' }, to: { date, time: '12:45' } });
    assert.ok(!offered(await search(b, s, date), date, '12:00', anna));
  });

  test('a range too dense to keep (1-minute grid, 4 staff, a month) still answers every search from fresh busy times', async () => {
    const { a, b } = world();
    const s = await createSalon(a);
    await adminOk(a, 'PATCH', `/businesses/${s.business.slug}/locations/${s.location.slug}`, { slotIntervalMinutes: 1 });
    for (const name of ['Csaba', 'Dóra']) {
      await createStaff(a, s.business.slug, s.location.slug, { name, serviceIds: [s.service.id] });
    }
    const from = daysAhead(3);
    const to = new Date(Date.parse(`${from}T12:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10);
    const month = (app: App) =>
      api(app, s.key.secret, 'POST', '/availability/search', {
        salonSlug: s.business.slug,
        locationSlug: s.location.slug,
        serviceId: s.service.id,
        dateRange: { from, to },
      });
    const anna = s.staff[0]!.id;
    // 4 staff × 480 grid minutes × 31 days > MAX_OPEN_SLOTS: only the inputs are kept
    for (let i = 0; i < 2; i++) assert.ok(offered(await month(b), from, '10:07', anna));
    assert.equal((await book(a, s, from, '10:07', anna)).status, 201);
    const after = await month(b);
    assert.ok(!offered(after, from, '10:07', anna), 'the booked minute is still offered');
    assert.ok(!offered(after, from, '10:20', anna), 'a minute the 30-minute booking covers is offered');
    assert.ok(offered(after, from, '10:37', anna), 'the first minute after it is not offered');
  });

  test('a warm search reads nothing from the database', async () => {
    const { a, b } = world();
    const s = await createSalon(a);
    const date = daysAhead(9);
    await search(b, s, date);
    await search(b, s, date);
    const queries = countQueries(b);
    try {
      const r = await search(b, s, date);
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(queries.seen, [], 'a warm search made these database calls');
    } finally {
      queries.stop();
    }
  });

  test('time off and working hours bump the business version in the writing transaction', async () => {
    const { a, db } = world();
    const s = await createSalon(a);
    const version = async () =>
      Number(
        (await db.query<{ version: number }>('SELECT version FROM business_versions WHERE business_id = $1', [s.business.id])).rows[0]
          ?.version,
      );
    const before = await version();
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await adminOk(a, 'POST', `/staff/${s.staff[0]!.id}/time-off`, { from: { date: day, time: '10:00' }, to: { date: day, time: '11:00' } });
    const afterTimeOff = await version();
    assert.ok(afterTimeOff > before, `${before} -> ${afterTimeOff}`);
    await db.query('DELETE FROM working_hours WHERE staff_id = $1 AND weekday = 1', [s.staff[0]!.id]);
    assert.ok((await version()) > afterTimeOff);
  });
}

const PG_SUITE = 'caches across two instances on one PostgreSQL and Redis';
if (!(DATABASE_URL && REDIS_URL)) test(PG_SUITE, { skip: 'needs DATABASE_URL and REDIS_URL' }, () => {});
else
  describe(PG_SUITE, { timeout: 120_000 }, () => {
    const two = useTwoInstances(DATABASE_URL, REDIS_URL, 'cache');
    invariants(two);

    test('a write whose publication to Redis failed is still seen by its own instance, and by the other once retried', async () => {
      const w = two();
      const s = await createSalon(w.a);
      await warm(w.a, s);
      await warm(w.b, s);
      const storeA = w.storeA;
      const publish = storeA.publishVersion;
      storeA.publishVersion = async () => {
        throw new Error('Redis away (test)');
      };
      try {
        await adminOk(w.a, 'PATCH', `/services/${s.service.id}`, { name: 'Unpublished rename' });
        const r = await services(w.a, s);
        assert.ok(
          r.body.data.services.some((x: any) => x.name === 'Unpublished rename'),
          r.raw,
        );
      } finally {
        storeA.publishVersion = publish;
      }
      // the retry (every 500 ms) publishes it
      const deadline = Date.now() + 5000;
      for (;;) {
        const r = await services(w.b, s);
        if (r.body.data.services.some((x: any) => x.name === 'Unpublished rename')) break;
        assert.ok(Date.now() < deadline, 'b never saw the retried publication');
        await new Promise((res) => setTimeout(res, 100));
      }
    });

    test('an instance whose Redis is unreachable (fail open) reads the database instead of its caches', async () => {
      const w = two();
      const db = PostgresDb.open(DATABASE_URL, 2);
      const store = new RedisRateLimitStore('redis://127.0.0.1:1', { prefix: w.prefix, commandTimeoutMs: 200 }, () => {});
      const c = await buildApp({ logger: false, config: testConfig(), db, rateLimitStore: store });
      try {
        const s = await createSalon(w.a);
        await warm(c, s);
        await adminOk(w.a, 'PATCH', `/services/${s.service.id}`, { name: 'Seen without Redis' });
        const r = await services(c, s);
        assert.ok(
          r.body.data.services.some((x: any) => x.name === 'Seen without Redis'),
          r.raw,
        );
        await adminOk(w.a, 'DELETE', `/api-keys/${s.key.id}`);
        assert.equal((await services(c, s)).status, 401);
      } finally {
        await c.close();
        await store.close();
        await db.close();
      }
    });
  });

describe('caches in one process (PGlite, no Redis)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness(dbTargets()[0]!);
    assert.equal(h.app.ctx.caches.mode, 'local');
  });
  after(() => h.close());
  invariants(() => ({ a: h.app, b: h.app, db: h.db }));
});
