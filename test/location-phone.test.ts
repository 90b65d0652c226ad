/**
 * The location's optional `phone` (guest-side.md "Self-service": shown to a guest who can no longer
 * cancel online): created, changed, cleared and read back; anything but digits, spaces, + - ( ) or
 * longer than 40 characters is a 400 in the envelope naming the field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { createBusiness } from './helpers/fixtures.ts';

const ADDRESS = { city: 'Budapest', street: 'Andrássy út 1.', zip: '1061' };

function assertInvalidPhone(r: { status: number; body: any; raw: string }): void {
  assert.equal(r.status, 400, r.raw);
  assert.equal(r.body.ok, false);
  assert.equal(r.body.error.code, 'request.validation_failed');
  assert.ok(
    r.body.error.details.issues.some((i: { path: string }) => i.path === 'body.phone'),
    `expected an issue at body.phone: ${r.raw}`,
  );
}

for (const target of dbTargets()) {
  describe(`location phone [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
    });
    after(() => h.close());

    test('created, read, changed and cleared', async () => {
      const biz = await createBusiness(h.app);
      const base = { slug: 'downtown', name: 'Downtown', timezone: 'Europe/Budapest', address: ADDRESS };
      const created = (await adminOk(h.app, 'POST', `/businesses/${biz.slug}/locations`, { ...base, phone: '+36 (1) 234-5678' })).location;
      assert.equal(created.phone, '+36 (1) 234-5678');
      const listed = (await adminOk(h.app, 'GET', `/businesses/${biz.slug}/locations`)).locations;
      assert.equal(listed[0].phone, '+36 (1) 234-5678');

      const changed = (await adminOk(h.app, 'PATCH', `/businesses/${biz.slug}/locations/downtown`, { phone: '06 1 999 0000' })).location;
      assert.equal(changed.phone, '06 1 999 0000');
      const untouched = (await adminOk(h.app, 'PATCH', `/businesses/${biz.slug}/locations/downtown`, { name: 'Centre' })).location;
      assert.equal(untouched.phone, '06 1 999 0000');
      const cleared = (await adminOk(h.app, 'PATCH', `/businesses/${biz.slug}/locations/downtown`, { phone: null })).location;
      assert.equal(cleared.phone, null);

      const without = (await adminOk(h.app, 'POST', `/businesses/${biz.slug}/locations`, { ...base, slug: 'east' })).location;
      assert.equal(without.phone, null);
    });

    test('letters, other signs, no digit or more than 40 characters: 400 at body.phone', async () => {
      const biz = await createBusiness(h.app);
      const base = { slug: 'downtown', name: 'Downtown', timezone: 'Europe/Budapest', address: ADDRESS };
      for (const phone of ['call us', '+36 1 234 5678 ext. 2', '+36/1/234', '1'.repeat(41), '', '  ', '()-+', 12345]) {
        assertInvalidPhone(await admin(h.app, 'POST', `/businesses/${biz.slug}/locations`, { ...base, phone }));
      }
      await adminOk(h.app, 'POST', `/businesses/${biz.slug}/locations`, { ...base, phone: '1'.repeat(40) });
      for (const phone of ['abc', '1'.repeat(41)]) {
        assertInvalidPhone(await admin(h.app, 'PATCH', `/businesses/${biz.slug}/locations/downtown`, { phone }));
      }
      const still = (await adminOk(h.app, 'GET', `/businesses/${biz.slug}/locations`)).locations[0];
      assert.equal(still.phone, '1'.repeat(40));
    });
  });
}
