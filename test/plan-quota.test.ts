/**
 * Plan and quota across instances (issue 6, item 2). What one app proves already lives elsewhere:
 * plan gating on every route (auth-rules), the quota count and window (bookings-create), two
 * concurrent creates at quota − 1 through one pool (bookings-race), operator plan limits and their
 * races (operator-catalogue). Here: two app instances, each with its own connection pool on
 * PostgreSQL (one shared database on PGlite), racing for the last booking of the month, and plan
 * changes made through one instance seen at once by the other.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.ts';
import type { App } from '../src/http/context.ts';
import type { Db } from '../src/store/db.ts';
import { dbTargets } from './helpers/databases.ts';
import { adminOk, testConfig, type Harness } from './helpers/harness.ts';
import { api, createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { bookingCount, bookingHarness, createBody, day } from './helpers/bookings.ts';
import { GenerousRateLimitStore } from './helpers/rate-limit.ts';

for (const target of dbTargets()) {
  describe(`plan and quota across two instances [${target.name}]`, () => {
    let h: Harness;
    let db2: Db;
    let app2: App;
    const store2 = new GenerousRateLimitStore();
    before(async () => {
      h = await bookingHarness(target);
      // The second instance: its own pool on PostgreSQL; PGlite is one connection, so it shares h.db.
      db2 = target.name === 'postgres' ? await target.open() : h.db;
      app2 = await buildApp({ config: testConfig(), db: db2, logger: false, rateLimitStore: store2, clock: () => h.clock.now });
    });
    after(async () => {
      await app2.close();
      await store2.close();
      if (db2 !== h.db) await db2.close();
      await h.close();
    });

    function createOn(app: App, salon: SalonFixture, startTime: string, staff = 0) {
      return api(app, salon.key.secret, 'POST', '/bookings', createBody(salon, { startTime, staffId: salon.staff[staff]!.id }));
    }

    test('two creates at quota − 1, one through each instance: exactly one wins (5 rounds)', async () => {
      for (let round = 0; round < 5; round++) {
        const salon = await createSalon(h.app, { subscription: { plan: 'pro', status: 'active', maxBookingsPerMonth: 2 } });
        assert.equal((await createOn(h.app, salon, '09:00')).status, 201);
        // Different staff and times: nothing but the quota stands between them.
        const [a, b] = await Promise.all([createOn(h.app, salon, '11:00', 0), createOn(app2, salon, '13:00', 1)]);
        const statuses = [a.status, b.status].sort();
        assert.deepEqual(statuses, [201, 403], `round ${round}: ${a.raw} / ${b.raw}`);
        const refused = a.status === 403 ? a : b;
        assert.equal(refused.body.error.code, 'subscription.quota_exceeded');
        assert.equal(refused.body.error.details.limit, 'maxBookingsPerMonth');
        assert.equal(await bookingCount(h, salon.business.id), 2);
        const sub = await api(app2, salon.key.secret, 'GET', '/subscription');
        assert.equal(sub.body.data.subscription.bookingsThisMonth, 2);
      }
    });

    test('many creates over both instances at quota − 3: exactly three win', async () => {
      const salon = await createSalon(h.app, { subscription: { plan: 'pro', status: 'active', maxBookingsPerMonth: 4 } });
      assert.equal((await createOn(h.app, salon, '09:00')).status, 201);
      const times = ['10:00', '10:30', '11:00', '11:30', '12:00', '12:30', '13:00', '13:30'];
      const rs = await Promise.all(times.map((t, i) => createOn(i % 2 ? app2 : h.app, salon, t, i % 2)));
      assert.equal(rs.filter((r) => r.status === 201).length, 3, rs.map((r) => r.status).join(','));
      assert.ok(rs.every((r) => r.status === 201 || r.body.error.code === 'subscription.quota_exceeded'));
      assert.equal(await bookingCount(h, salon.business.id), 4);
    });

    test('a plan change through the operator API is seen by the other instance on its next request', async () => {
      const salon = await createSalon(h.app, { subscription: { plan: 'pro', status: 'active', maxBookingsPerMonth: 1 } });
      assert.equal((await api(app2, salon.key.secret, 'GET', '/subscription')).status, 200);
      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/subscription`, { status: 'paused' });
      const paused = await api(app2, salon.key.secret, 'GET', '/subscription');
      assert.equal(paused.status, 403);
      assert.equal(paused.body.error.code, 'auth.plan_insufficient');
      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/subscription`, { status: 'past_due' });
      assert.equal((await createOn(app2, salon, '10:00')).status, 201, 'past_due still allows the API');
      const over = await createOn(app2, salon, '12:00');
      assert.equal(over.body.error.code, 'subscription.quota_exceeded');
      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/subscription`, { maxBookingsPerMonth: null });
      assert.equal((await createOn(app2, salon, '12:00')).status, 201, 'null = unlimited');
      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/subscription`, { features: { apiAccess: false } });
      const off = await api(app2, salon.key.secret, 'POST', '/bookings', createBody(salon, { date: day(3) }));
      assert.equal(off.body.error.code, 'auth.plan_insufficient');
    });
  });
}
