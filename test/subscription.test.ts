import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, startHarness, type Harness } from './helpers/harness.ts';
import { api, createBusiness, createKey } from './helpers/fixtures.ts';

for (const target of dbTargets()) {
  describe(`GET /subscription [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
    });
    after(() => h.close());

    test('returns the SubscriptionView with all six feature keys', async () => {
      const biz = await createBusiness(h.app, { plan: 'pro', status: 'trialing', maxBookingsPerMonth: 100 });
      const key = await createKey(h.app, biz.slug);
      const r = await api(h.app, key.secret, 'GET', '/subscription');
      assert.equal(r.status, 200);
      assert.equal(r.body.ok, true);
      assert.equal(r.body.meta.v, '1');
      assert.equal(r.headers['x-request-id'], r.body.meta.requestId);
      assert.deepEqual(r.body.data.subscription, {
        plan: 'pro',
        status: 'trialing',
        cancelAtPeriodEnd: false,
        currentPeriodEnd: null,
        bookingsThisMonth: 0,
        maxBookingsPerMonth: 100,
        maxActiveServices: null,
        maxStaffMembers: null,
        maxLocations: null,
        features: {
          smsNotifications: true,
          calendarSync: true,
          bookingPageBranding: true,
          depositCollection: true,
          analytics: false,
          apiAccess: true,
        },
      });
    });

    test('feature overrides and subscription patch are reflected', async () => {
      const biz = await createBusiness(h.app, { plan: 'business', status: 'active' });
      const key = await createKey(h.app, biz.slug);
      const p = await admin(h.app, 'PATCH', `/businesses/${biz.slug}/subscription`, {
        features: { analytics: false },
        cancelAtPeriodEnd: true,
        currentPeriodEnd: '2027-01-01T00:00:00.000Z',
      });
      assert.equal(p.status, 200, p.raw);
      const r = await api(h.app, key.secret, 'GET', '/subscription');
      assert.equal(r.body.data.subscription.features.analytics, false);
      assert.equal(r.body.data.subscription.cancelAtPeriodEnd, true);
      assert.equal(r.body.data.subscription.currentPeriodEnd, '2027-01-01T00:00:00.000Z');
    });

    test('salonSlug of another business is a scope mismatch', async () => {
      const biz = await createBusiness(h.app);
      const other = await createBusiness(h.app);
      const key = await createKey(h.app, biz.slug);
      const r = await api(h.app, key.secret, 'GET', `/subscription?salonSlug=${other.slug}`);
      assert.equal(r.status, 403);
      assert.equal(r.body.error.code, 'auth.scope_mismatch');
    });
  });
}
