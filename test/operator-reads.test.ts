import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { createBusiness, createLocation, createService, createStaff, uniqueSlug } from './helpers/fixtures.ts';

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

    describe('locations', () => {
      test('every location, booking-disabled ones included, as POST and PATCH answered them, by slug', async () => {
        const biz = await createBusiness(h.app);
        const address = { city: 'Budapest', street: 'Fő utca 2.', zip: '1011' };
        const post = (slug: string, extra: object = {}) =>
          adminOk(h.app, 'POST', `/businesses/${biz.slug}/locations`, { slug, name: slug, timezone: 'Europe/Budapest', address, ...extra });
        const b = (await post('b-side')).location;
        const a = (await post('ab', { bookingEnabled: false })).location;
        const az = (await post('a-z')).location;
        const patched = (await adminOk(h.app, 'PATCH', `/businesses/${biz.slug}/locations/b-side`, { bookingEnabled: false, name: 'B' }))
          .location;
        assert.equal(patched.id, b.id);
        const { locations } = await adminOk(h.app, 'GET', `/businesses/${biz.slug}/locations`);
        // Byte order puts "a-z" before "ab"; a linguistic collation that ignores dashes would not.
        assert.deepEqual(locations, [az, a, patched]);
      });

      test('a business without locations has an empty list; an unknown business is 404', async () => {
        const biz = await createBusiness(h.app);
        assert.deepEqual((await adminOk(h.app, 'GET', `/businesses/${biz.slug}/locations`)).locations, []);
        assertError(await admin(h.app, 'GET', `/businesses/${uniqueSlug('nope')}/locations`), 404, 'request.not_found');
      });

      test("another business's locations are not listed", async () => {
        const one = await createBusiness(h.app);
        const other = await createBusiness(h.app);
        await createLocation(h.app, other.slug);
        const mine = await createLocation(h.app, one.slug);
        const { locations } = await adminOk(h.app, 'GET', `/businesses/${one.slug}/locations`);
        assert.deepEqual(
          locations.map((l: any) => l.id),
          [mine.id],
        );
      });
    });

    describe('services', () => {
      test('every service, inactive and not-online-bookable ones included, as POST and PATCH answered them, by name', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const other = await createLocation(h.app, biz.slug);
        const massage = await createService(h.app, biz.slug, loc.slug, { name: 'Massage', onlineBookable: false });
        const cut = await createService(h.app, biz.slug, loc.slug, { name: 'Cut', description: 'short' });
        const colour = await createService(h.app, biz.slug, other.slug, { name: 'colour', priceType: 'negotiable', price: null });
        const inactive = (await adminOk(h.app, 'PATCH', `/services/${cut.id}`, { active: false, durationMinutes: 45 })).service;
        assert.notEqual(inactive.pricingVersion, cut.pricingVersion);

        const { services } = await adminOk(h.app, 'GET', `/businesses/${biz.slug}/services`);
        assert.deepEqual(services, [colour, inactive, massage]);
        const atLoc = await adminOk(h.app, 'GET', `/businesses/${biz.slug}/services?locationSlug=${loc.slug}`);
        assert.deepEqual(atLoc.services, [inactive, massage]);

        assert.deepEqual((await adminOk(h.app, 'GET', `/services/${inactive.id}`)).service, inactive);
        assert.deepEqual((await adminOk(h.app, 'GET', `/services/${colour.id}`)).service, colour);
      });

      test('unknown business, location and service', async () => {
        const biz = await createBusiness(h.app);
        assert.deepEqual((await adminOk(h.app, 'GET', `/businesses/${biz.slug}/services`)).services, []);
        assertError(await admin(h.app, 'GET', `/businesses/${uniqueSlug('nope')}/services`), 404, 'request.not_found');
        assertError(await admin(h.app, 'GET', `/businesses/${biz.slug}/services?locationSlug=nowhere`), 404, 'request.not_found');
        assertError(await admin(h.app, 'GET', '/services/svc_unknown'), 404, 'catalog.service_not_found');
      });

      test("another business's location is not a filter of this one", async () => {
        const one = await createBusiness(h.app);
        const other = await createBusiness(h.app);
        const theirs = await createLocation(h.app, other.slug);
        await createService(h.app, other.slug, theirs.slug);
        assertError(await admin(h.app, 'GET', `/businesses/${one.slug}/services?locationSlug=${theirs.slug}`), 404, 'request.not_found');
      });
    });

    describe('staff', () => {
      test('every staff member with serviceIds and workingHours, inactive ones included, as POST and PATCH answered them', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const other = await createLocation(h.app, biz.slug);
        const cut = await createService(h.app, biz.slug, loc.slug, { name: 'Cut' });
        const dye = await createService(h.app, biz.slug, loc.slug, { name: 'Dye' });
        const zoe = await createStaff(h.app, biz.slug, loc.slug, {
          name: 'Zoe',
          serviceIds: [dye.id, cut.id],
          workingHours: [
            { weekday: 2, start: '13:00', end: '18:00' },
            { weekday: 1, start: '09:00', end: '12:00' },
            { weekday: 1, start: '08:00', end: '08:30' },
          ],
        });
        const anna = await createStaff(h.app, biz.slug, loc.slug, { name: 'anna', bio: 'Colourist' });
        const bela = await createStaff(h.app, biz.slug, other.slug, { name: 'Béla', workingHours: [] });
        const retired = (await adminOk(h.app, 'PATCH', `/staff/${anna.id}`, { active: false, serviceIds: [cut.id] })).staff;
        assert.deepEqual(retired.serviceIds, [cut.id]);
        assert.deepEqual(
          zoe.workingHours.map((w: any) => `${w.weekday} ${w.start}`),
          ['1 08:00', '1 09:00', '2 13:00'],
        );

        const { staff } = await adminOk(h.app, 'GET', `/businesses/${biz.slug}/staff`);
        assert.deepEqual(staff, [retired, bela, zoe]);
        assert.deepEqual((await adminOk(h.app, 'GET', `/businesses/${biz.slug}/staff?locationSlug=${loc.slug}`)).staff, [retired, zoe]);
        assert.deepEqual((await adminOk(h.app, 'GET', `/staff/${zoe.id}`)).staff, zoe);
        assert.deepEqual((await adminOk(h.app, 'GET', `/staff/${bela.id}`)).staff, bela);
      });

      test('unknown business, location and staff member', async () => {
        const biz = await createBusiness(h.app);
        assert.deepEqual((await adminOk(h.app, 'GET', `/businesses/${biz.slug}/staff`)).staff, []);
        assertError(await admin(h.app, 'GET', `/businesses/${uniqueSlug('nope')}/staff`), 404, 'request.not_found');
        assertError(await admin(h.app, 'GET', `/businesses/${biz.slug}/staff?locationSlug=nowhere`), 404, 'request.not_found');
        assertError(await admin(h.app, 'GET', '/staff/stf_unknown'), 404, 'catalog.staff_not_found');
      });
    });
  });
}
