import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { createBusiness, uniqueSlug } from './helpers/fixtures.ts';

function assertError(r: { status: number; body: any; raw: string }, status: number, code: string): void {
  assert.equal(r.status, status, r.raw);
  assert.equal(r.body.ok, false);
  assert.equal(r.body.error.code, code);
}

for (const target of dbTargets()) {
  describe(`operator reads [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
    });
    after(() => h.close());

    describe('businesses', () => {
      test('the list holds every business with its subscription, by slug then id', async () => {
        const slug = uniqueSlug();
        const created = (
          await adminOk(h.app, 'POST', '/businesses', {
            slug,
            name: 'Listed',
            currency: 'EUR',
            subscription: { plan: 'starter', status: 'trialing', maxLocations: 2 },
          })
        ).business;
        const setup = await createBusiness(h.app, { status: 'setup', plan: null });
        const { businesses } = await adminOk(h.app, 'GET', '/businesses');
        assert.deepEqual(
          businesses.find((b: any) => b.slug === slug),
          created,
        );
        assert.equal(businesses.find((b: any) => b.slug === setup.slug).subscription.status, 'setup');
        const slugs = businesses.map((b: any) => b.slug);
        assert.deepEqual(slugs, [...slugs].sort());
      });

      test('one business answers what its create answered; the subscription follows a PATCH', async () => {
        const slug = uniqueSlug();
        const created = (await adminOk(h.app, 'POST', '/businesses', { slug, name: 'One', currency: 'HUF' })).business;
        assert.deepEqual((await adminOk(h.app, 'GET', `/businesses/${slug}`)).business, created);
        const sub = (await adminOk(h.app, 'PATCH', `/businesses/${slug}/subscription`, { plan: 'pro', status: 'active' })).subscription;
        assert.deepEqual((await adminOk(h.app, 'GET', `/businesses/${slug}`)).business.subscription, sub);
      });

      test('an unknown slug is 404 request.not_found', async () => {
        assertError(await admin(h.app, 'GET', `/businesses/${uniqueSlug('nope')}`), 404, 'request.not_found');
      });
    });
  });
}
