import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { createBusiness, createLocation, createService, createStaff, uniqueSlug } from './helpers/fixtures.ts';

const HEX12 = /^[0-9a-f]{12}$/;

function assertInvalid(r: { status: number; body: any; raw: string }, path?: string): void {
  assert.equal(r.status, 400, r.raw);
  assert.equal(r.body.error.code, 'request.validation_failed');
  if (path !== undefined) {
    assert.ok(
      r.body.error.details.issues.some((i: { path: string }) => i.path === path),
      `expected an issue at ${path}: ${r.raw}`,
    );
  }
}

function assertError(r: { status: number; body: any; raw: string }, status: number, code: string): void {
  assert.equal(r.status, status, r.raw);
  assert.equal(r.body.ok, false);
  assert.equal(r.body.error.code, code);
}

const ADDRESS = { city: 'Budapest', street: 'Andrássy út 1.', zip: '1061' };

for (const target of dbTargets()) {
  describe(`operator catalogue [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
    });
    after(() => h.close());

    describe('locations', () => {
      test('create applies the documented defaults', async () => {
        const biz = await createBusiness(h.app);
        const r = await admin(h.app, 'POST', `/businesses/${biz.slug}/locations`, {
          slug: 'downtown',
          name: 'Downtown',
          timezone: 'Europe/Budapest',
          address: ADDRESS,
        });
        assert.equal(r.status, 200, r.raw);
        const l = r.body.data.location;
        assert.match(l.id, /^loc_/);
        assert.deepEqual(
          { ...l, id: undefined, createdAt: undefined, updatedAt: undefined },
          {
            id: undefined,
            slug: 'downtown',
            name: 'Downtown',
            publicLocationName: 'Downtown',
            timezone: 'Europe/Budapest',
            address: ADDRESS,
            bookingEnabled: true,
            slotIntervalMinutes: 15,
            minNoticeMinutes: 60,
            horizonDays: 90,
            paymentInstructions: null,
            phone: null,
            staffAssignment: 'ordered',
            createdAt: undefined,
            updatedAt: undefined,
          },
        );
        assert.ok(!Number.isNaN(Date.parse(l.createdAt)));
      });

      test('create takes every optional field', async () => {
        const biz = await createBusiness(h.app);
        const l = (
          await adminOk(h.app, 'POST', `/businesses/${biz.slug}/locations`, {
            slug: 'riverside',
            name: 'Riverside',
            publicLocationName: 'Salon by the river',
            timezone: 'America/New_York',
            address: ADDRESS,
            bookingEnabled: false,
            slotIntervalMinutes: 30,
            minNoticeMinutes: 0,
            horizonDays: 30,
          })
        ).location;
        assert.equal(l.publicLocationName, 'Salon by the river');
        assert.equal(l.bookingEnabled, false);
        assert.equal(l.slotIntervalMinutes, 30);
        assert.equal(l.minNoticeMinutes, 0);
        assert.equal(l.horizonDays, 30);
      });

      test('timezone must be a named IANA zone', async () => {
        const biz = await createBusiness(h.app);
        for (const timezone of ['Mars/Olympus', '+01:00', 'not a zone']) {
          const r = await admin(h.app, 'POST', `/businesses/${biz.slug}/locations`, {
            slug: uniqueSlug('loc'),
            name: 'X',
            timezone,
            address: ADDRESS,
          });
          assertInvalid(r, 'body.timezone');
        }
      });

      test('schema violations are 400 with the field path', async () => {
        const biz = await createBusiness(h.app);
        const base = { slug: 'ok-slug', name: 'X', timezone: 'Europe/Budapest', address: ADDRESS };
        assertInvalid(await admin(h.app, 'POST', `/businesses/${biz.slug}/locations`, { ...base, slug: 'Bad Slug' }), 'body.slug');
        assertInvalid(await admin(h.app, 'POST', `/businesses/${biz.slug}/locations`, { ...base, address: { city: 'B' } }));
        assertInvalid(
          await admin(h.app, 'POST', `/businesses/${biz.slug}/locations`, { ...base, slotIntervalMinutes: 0 }),
          'body.slotIntervalMinutes',
        );
        assertInvalid(await admin(h.app, 'POST', `/businesses/${biz.slug}/locations`, { ...base, colour: 'red' }), 'body.colour');
        const { timezone: _tz, ...noZone } = base;
        assertInvalid(await admin(h.app, 'POST', `/businesses/${biz.slug}/locations`, noZone), 'body.timezone');
      });

      test('a duplicate slug in the business is 400; another business may reuse it', async () => {
        const biz = await createBusiness(h.app);
        const other = await createBusiness(h.app);
        await createLocation(h.app, biz.slug, { slug: 'main' });
        const r = await admin(h.app, 'POST', `/businesses/${biz.slug}/locations`, {
          slug: 'main',
          name: 'Again',
          timezone: 'Europe/Budapest',
          address: ADDRESS,
        });
        assertInvalid(r, 'body.slug');
        await createLocation(h.app, other.slug, { slug: 'main' });
      });

      test('unknown business is 404 request.not_found', async () => {
        const r = await admin(h.app, 'POST', '/businesses/no-such-business-x/locations', {
          slug: 'a',
          name: 'A',
          timezone: 'Europe/Budapest',
          address: ADDRESS,
        });
        assertError(r, 404, 'request.not_found');
      });

      test('the operator token is required', async () => {
        const biz = await createBusiness(h.app);
        const r = await h.app.inject({
          method: 'POST',
          url: `/admin/v1/businesses/${biz.slug}/locations`,
          headers: { authorization: 'Bearer wrong-token-wrong-token' },
          payload: { slug: 'a', name: 'A', timezone: 'Europe/Budapest', address: ADDRESS },
        });
        assert.equal(r.statusCode, 401);
        assert.equal(JSON.parse(r.body).error.code, 'auth.invalid_key');
      });

      test('PATCH changes only the given fields, the slug included', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug, { name: 'Old name' });
        const r = await admin(h.app, 'PATCH', `/businesses/${biz.slug}/locations/${loc.slug}`, {
          slug: 'renamed',
          bookingEnabled: false,
          address: { city: 'Debrecen', street: 'Piac utca 2.', zip: '4024' },
          timezone: 'Europe/Vienna',
        });
        assert.equal(r.status, 200, r.raw);
        const l = r.body.data.location;
        assert.equal(l.id, loc.id);
        assert.equal(l.slug, 'renamed');
        assert.equal(l.name, 'Old name');
        assert.equal(l.publicLocationName, 'Old name');
        assert.equal(l.bookingEnabled, false);
        assert.equal(l.timezone, 'Europe/Vienna');
        assert.deepEqual(l.address, { city: 'Debrecen', street: 'Piac utca 2.', zip: '4024' });
        assert.equal(l.slotIntervalMinutes, 15);
        const again = await admin(h.app, 'PATCH', `/businesses/${biz.slug}/locations/renamed`, { horizonDays: 14 });
        assert.equal(again.body.data.location.horizonDays, 14);
      });

      test('PATCH errors: unknown location 404, bad zone 400, taken slug 400, partial address 400', async () => {
        const biz = await createBusiness(h.app);
        const a = await createLocation(h.app, biz.slug);
        const b = await createLocation(h.app, biz.slug);
        assertError(await admin(h.app, 'PATCH', `/businesses/${biz.slug}/locations/nope`, { name: 'X' }), 404, 'request.not_found');
        assertError(await admin(h.app, 'PATCH', `/businesses/no-such-biz-x/locations/${a.slug}`, { name: 'X' }), 404, 'request.not_found');
        assertInvalid(
          await admin(h.app, 'PATCH', `/businesses/${biz.slug}/locations/${a.slug}`, { timezone: 'Nowhere/City' }),
          'body.timezone',
        );
        assertInvalid(await admin(h.app, 'PATCH', `/businesses/${biz.slug}/locations/${a.slug}`, { slug: b.slug }), 'body.slug');
        assertInvalid(await admin(h.app, 'PATCH', `/businesses/${biz.slug}/locations/${a.slug}`, { address: { city: 'X' } }));
        assertInvalid(await admin(h.app, 'PATCH', `/businesses/${biz.slug}/locations/${a.slug}`, { extra: 1 }), 'body.extra');
      });
    });

    describe('services', () => {
      test('create stores the price in minor units and shows major units with defaults', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const r = await admin(h.app, 'POST', `/businesses/${biz.slug}/services`, {
          locationSlug: loc.slug,
          name: 'Haircut',
          durationMinutes: 30,
          priceType: 'fixed',
          price: { amount: 8000, currency: 'HUF' },
          requestAcceptancePolicy: 'automatic',
        });
        assert.equal(r.status, 200, r.raw);
        const s = r.body.data.service;
        assert.match(s.id, /^svc_/);
        assert.match(s.pricingVersion, HEX12);
        assert.deepEqual(
          { ...s, id: undefined, pricingVersion: undefined, createdAt: undefined, updatedAt: undefined },
          {
            id: undefined,
            locationId: loc.id,
            locationSlug: loc.slug,
            name: 'Haircut',
            description: null,
            durationMinutes: 30,
            priceType: 'fixed',
            price: { amount: 8000, currency: 'HUF' },
            pricingVersion: undefined,
            requestAcceptancePolicy: 'automatic',
            onlineBookable: true,
            active: true,
            onSite: false,
            bookingMode: 'standard',
            bufferBeforeMinutes: 0,
            bufferAfterMinutes: 0,
            segments: [{ kind: 'work', minutes: 30 }],
            deposit: { required: false },
            resourceIds: [],
            staffVariants: [],
            createdAt: undefined,
            updatedAt: undefined,
          },
        );
        const rows = await h.db.query<{ price_minor: number }>('SELECT price_minor FROM services WHERE id = $1', [s.id]);
        assert.equal(rows.rows[0]!.price_minor, 8000);
      });

      test('EUR prices keep cents; more decimals than the currency allows is 400', async () => {
        const biz = await createBusiness(h.app, undefined, 'EUR');
        const loc = await createLocation(h.app, biz.slug);
        const s = await createService(h.app, biz.slug, loc.slug, { price: { amount: 12.5, currency: 'EUR' } }, 'EUR');
        assert.deepEqual(s.price, { amount: 12.5, currency: 'EUR' });
        const rows = await h.db.query<{ price_minor: number }>('SELECT price_minor FROM services WHERE id = $1', [s.id]);
        assert.equal(rows.rows[0]!.price_minor, 1250);
        const r = await admin(h.app, 'POST', `/businesses/${biz.slug}/services`, {
          locationSlug: loc.slug,
          name: 'X',
          durationMinutes: 30,
          priceType: 'fixed',
          price: { amount: 12.345, currency: 'EUR' },
          requestAcceptancePolicy: 'manual',
        });
        assertInvalid(r, 'body.price.amount');
      });

      test('price rules: currency, fixed/from need a price, negotiable needs null', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const base = { locationSlug: loc.slug, name: 'X', durationMinutes: 30, requestAcceptancePolicy: 'manual' };
        const post = (body: object) => admin(h.app, 'POST', `/businesses/${biz.slug}/services`, { ...base, ...body });
        assertInvalid(await post({ priceType: 'fixed', price: { amount: 10, currency: 'EUR' } }), 'body.price.currency');
        assertInvalid(await post({ priceType: 'fixed', price: null }), 'body.price');
        assertInvalid(await post({ priceType: 'from', price: null }), 'body.price');
        assertInvalid(await post({ priceType: 'negotiable', price: { amount: 10, currency: 'HUF' } }), 'body.price');
        assertInvalid(await post({ priceType: 'fixed', price: { amount: 100.5, currency: 'HUF' } }), 'body.price.amount');
        assertInvalid(await post({ priceType: 'fixed', price: { amount: -1, currency: 'HUF' } }), 'body.price.amount');
        assertInvalid(await post({ priceType: 'cheap', price: null }), 'body.priceType');
        assertInvalid(await post({ priceType: 'fixed' }), 'body.price');
        assertInvalid(await post({ priceType: 'negotiable', price: null, durationMinutes: 0 }), 'body.durationMinutes');
        assertInvalid(await post({ priceType: 'negotiable', price: null, bookingMode: 'solo' }), 'body.bookingMode');
        const ok = await post({ priceType: 'negotiable', price: null });
        assert.equal(ok.status, 200, ok.raw);
        assert.equal(ok.body.data.service.price, null);
      });

      test('deposit: required needs termsVersion; terms or amount without required are refused', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const post = (deposit: object) =>
          admin(h.app, 'POST', `/businesses/${biz.slug}/services`, {
            locationSlug: loc.slug,
            name: 'Deposit',
            durationMinutes: 60,
            priceType: 'fixed',
            price: { amount: 20000, currency: 'HUF' },
            requestAcceptancePolicy: 'manual',
            deposit,
          });
        assertInvalid(await post({ required: true }), 'body.deposit.termsVersion');
        assertInvalid(await post({ required: false, termsVersion: 'v1' }), 'body.deposit.termsVersion');
        assertInvalid(
          await post({ required: true, termsVersion: 'v1', amount: { amount: 10, currency: 'EUR' } }),
          'body.deposit.amount.currency',
        );
        assertInvalid(
          await post({ required: true, termsVersion: 'v1', amount: { amount: 0, currency: 'HUF' } }),
          'body.deposit.amount.amount',
        );
        const r = await post({ required: true, termsVersion: 'dep-2026-01', amount: { amount: 5000, currency: 'HUF' } });
        assert.equal(r.status, 200, r.raw);
        assert.deepEqual(r.body.data.service.deposit, {
          required: true,
          termsVersion: 'dep-2026-01',
          amount: { amount: 5000, currency: 'HUF' },
        });
      });

      test('unknown business or location is 404 request.not_found', async () => {
        const biz = await createBusiness(h.app);
        const body = {
          locationSlug: 'nowhere',
          name: 'X',
          durationMinutes: 30,
          priceType: 'negotiable',
          price: null,
          requestAcceptancePolicy: 'manual',
        };
        assertError(await admin(h.app, 'POST', `/businesses/${biz.slug}/services`, body), 404, 'request.not_found');
        assertError(await admin(h.app, 'POST', '/businesses/no-such-biz-x/services', body), 404, 'request.not_found');
      });

      test('PATCH: pricingVersion changes only with priceType, price or duration', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const s = await createService(h.app, biz.slug, loc.slug);
        const patch = async (body: object) => {
          const r = await admin(h.app, 'PATCH', `/services/${s.id}`, body);
          assert.equal(r.status, 200, r.raw);
          return r.body.data.service;
        };
        const v0 = s.pricingVersion;
        let cur = await patch({
          name: 'Renamed',
          description: 'Now with a description',
          requestAcceptancePolicy: 'manual',
          onlineBookable: false,
          bufferAfterMinutes: 10,
          deposit: { required: true, termsVersion: 't1' },
        });
        assert.equal(cur.pricingVersion, v0);
        assert.equal(cur.name, 'Renamed');
        assert.equal(cur.description, 'Now with a description');
        assert.equal(cur.onlineBookable, false);
        assert.equal(cur.bufferAfterMinutes, 10);
        assert.deepEqual(cur.deposit, { required: true, termsVersion: 't1' });
        cur = await patch({ price: { amount: 5000, currency: 'HUF' } });
        assert.equal(cur.pricingVersion, v0, 'the same price is no change');

        cur = await patch({ price: { amount: 6000, currency: 'HUF' } });
        const v1 = cur.pricingVersion;
        assert.match(v1, HEX12);
        assert.notEqual(v1, v0);
        cur = await patch({ durationMinutes: 45 });
        const v2 = cur.pricingVersion;
        assert.notEqual(v2, v1);
        cur = await patch({ priceType: 'from' });
        const v3 = cur.pricingVersion;
        assert.notEqual(v3, v2);
        // A deposit needs an amount or a price (guest-side.md): going negotiable drops the deposit too.
        cur = await patch({ priceType: 'negotiable', price: null, deposit: { required: false } });
        assert.notEqual(cur.pricingVersion, v3);
        assert.equal(cur.price, null);
        cur = await patch({ description: null, deposit: { required: false } });
        assert.equal(cur.description, null);
        assert.deepEqual(cur.deposit, { required: false });
      });

      test('PATCH errors: price rule, currency, location change, unknown service', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const other = await createLocation(h.app, biz.slug);
        const s = await createService(h.app, biz.slug, loc.slug);
        assertInvalid(await admin(h.app, 'PATCH', `/services/${s.id}`, { priceType: 'negotiable' }), 'body.price');
        assertInvalid(await admin(h.app, 'PATCH', `/services/${s.id}`, { price: null }), 'body.price');
        assertInvalid(await admin(h.app, 'PATCH', `/services/${s.id}`, { price: { amount: 1, currency: 'USD' } }), 'body.price.currency');
        assertInvalid(await admin(h.app, 'PATCH', `/services/${s.id}`, { locationSlug: other.slug }), 'body.locationSlug');
        assertInvalid(await admin(h.app, 'PATCH', `/services/${s.id}`, { deposit: { required: true } }), 'body.deposit.termsVersion');
        assertInvalid(await admin(h.app, 'PATCH', `/services/${s.id}`, { pricingVersion: 'abcdefabcdef' }), 'body.pricingVersion');
        const same = await admin(h.app, 'PATCH', `/services/${s.id}`, { locationSlug: loc.slug });
        assert.equal(same.status, 200, same.raw);
        assertError(await admin(h.app, 'PATCH', '/services/svc_doesnotexist', { name: 'X' }), 404, 'catalog.service_not_found');
        // nothing of the refused patches was stored
        const after = await admin(h.app, 'PATCH', `/services/${s.id}`, {});
        assert.equal(after.body.data.service.pricingVersion, s.pricingVersion);
        assert.deepEqual(after.body.data.service.price, s.price);
      });
    });

    describe('staff', () => {
      test('create with services and working hours (break, end of day)', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const s1 = await createService(h.app, biz.slug, loc.slug);
        const s2 = await createService(h.app, biz.slug, loc.slug, { name: 'Colour' });
        const r = await admin(h.app, 'POST', `/businesses/${biz.slug}/staff`, {
          locationSlug: loc.slug,
          name: 'Anna',
          bio: 'Stylist',
          avatarUrl: 'https://example.com/anna.png',
          serviceIds: [s2.id, s1.id],
          workingHours: [
            { weekday: 2, start: '13:00', end: '17:00' },
            { weekday: 2, start: '09:00', end: '12:00' },
            { weekday: 1, start: '12:00', end: '24:00' },
            { weekday: 1, start: '08:00', end: '12:00' },
          ],
        });
        assert.equal(r.status, 200, r.raw);
        const st = r.body.data.staff;
        assert.match(st.id, /^stf_/);
        assert.equal(st.locationId, loc.id);
        assert.equal(st.locationSlug, loc.slug);
        assert.equal(st.bio, 'Stylist');
        assert.equal(st.avatarUrl, 'https://example.com/anna.png');
        assert.equal(st.active, true);
        assert.deepEqual(st.serviceIds, [s1.id, s2.id].sort());
        assert.deepEqual(st.workingHours, [
          { weekday: 1, start: '08:00', end: '12:00' },
          { weekday: 1, start: '12:00', end: '24:00' },
          { weekday: 2, start: '09:00', end: '12:00' },
          { weekday: 2, start: '13:00', end: '17:00' },
        ]);
        const plain = await createStaff(h.app, biz.slug, loc.slug, { workingHours: [] });
        assert.equal(plain.bio, null);
        assert.equal(plain.avatarUrl, null);
        assert.deepEqual(plain.workingHours, []);
      });

      test('working-hours rules', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const post = (workingHours: object[]) =>
          admin(h.app, 'POST', `/businesses/${biz.slug}/staff`, { locationSlug: loc.slug, name: 'X', serviceIds: [], workingHours });
        assertInvalid(await post([{ weekday: 1, start: '12:00', end: '12:00' }]), 'body.workingHours[0].end');
        assertInvalid(await post([{ weekday: 1, start: '13:00', end: '09:00' }]), 'body.workingHours[0].end');
        assertInvalid(
          await post([
            { weekday: 3, start: '09:00', end: '13:00' },
            { weekday: 3, start: '12:00', end: '17:00' },
          ]),
          'body.workingHours[1]',
        );
        assertInvalid(await post([{ weekday: 8, start: '09:00', end: '17:00' }]), 'body.workingHours.0.weekday');
        assertInvalid(await post([{ weekday: 0, start: '09:00', end: '17:00' }]), 'body.workingHours.0.weekday');
        assertInvalid(await post([{ weekday: 1, start: '24:00', end: '24:00' }]), 'body.workingHours.0.start');
        assertInvalid(await post([{ weekday: 1, start: '9:00', end: '17:00' }]), 'body.workingHours.0.start');
        assertInvalid(await post([{ weekday: 1, start: '09:00', end: '24:30' }]), 'body.workingHours.0.end');
        const touching = await post([
          { weekday: 3, start: '09:00', end: '12:00' },
          { weekday: 3, start: '12:00', end: '17:00' },
          { weekday: 4, start: '09:00', end: '12:00' },
        ]);
        assert.equal(touching.status, 200, touching.raw);
      });

      test('serviceIds must be services of the same location', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const other = await createLocation(h.app, biz.slug);
        const here = await createService(h.app, biz.slug, loc.slug);
        const there = await createService(h.app, biz.slug, other.slug);
        const r = await admin(h.app, 'POST', `/businesses/${biz.slug}/staff`, {
          locationSlug: loc.slug,
          name: 'X',
          serviceIds: [here.id, there.id, 'svc_missing'],
          workingHours: [],
        });
        assertError(r, 404, 'catalog.service_not_found');
        assert.deepEqual(r.body.error.details.serviceIds, [there.id, 'svc_missing']);
        assertInvalid(
          await admin(h.app, 'POST', `/businesses/${biz.slug}/staff`, {
            locationSlug: loc.slug,
            name: 'X',
            serviceIds: [here.id, here.id],
            workingHours: [],
          }),
          'body.serviceIds',
        );
        assertError(
          await admin(h.app, 'POST', `/businesses/${biz.slug}/staff`, {
            locationSlug: 'nope',
            name: 'X',
            serviceIds: [],
            workingHours: [],
          }),
          404,
          'request.not_found',
        );
        assertInvalid(
          await admin(h.app, 'POST', `/businesses/${biz.slug}/staff`, { locationSlug: loc.slug, name: 'X', serviceIds: [] }),
          'body.workingHours',
        );
        assertInvalid(
          await admin(h.app, 'POST', `/businesses/${biz.slug}/staff`, {
            locationSlug: loc.slug,
            name: 'X',
            serviceIds: [],
            workingHours: [],
            avatarUrl: 'javascript:alert(1)',
          }),
          'body.avatarUrl',
        );
      });

      test('PATCH replaces lists wholesale and clears with null', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const s1 = await createService(h.app, biz.slug, loc.slug);
        const s2 = await createService(h.app, biz.slug, loc.slug);
        const st = await createStaff(h.app, biz.slug, loc.slug, { bio: 'Old', serviceIds: [s1.id] });
        const r = await admin(h.app, 'PATCH', `/staff/${st.id}`, {
          name: 'New name',
          bio: null,
          serviceIds: [s2.id],
          workingHours: [{ weekday: 5, start: '10:00', end: '14:00' }],
        });
        assert.equal(r.status, 200, r.raw);
        const v = r.body.data.staff;
        assert.equal(v.name, 'New name');
        assert.equal(v.bio, null);
        assert.deepEqual(v.serviceIds, [s2.id]);
        assert.deepEqual(v.workingHours, [{ weekday: 5, start: '10:00', end: '14:00' }]);
        const untouched = (await adminOk(h.app, 'PATCH', `/staff/${st.id}`, { avatarUrl: 'https://example.com/a.jpg' })).staff;
        assert.deepEqual(untouched.serviceIds, [s2.id]);
        assert.deepEqual(untouched.workingHours, v.workingHours);
        assert.equal(untouched.avatarUrl, 'https://example.com/a.jpg');
      });

      test('PATCH errors: unknown staff, foreign service, overlap, location change', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const other = await createLocation(h.app, biz.slug);
        const there = await createService(h.app, biz.slug, other.slug);
        const st = await createStaff(h.app, biz.slug, loc.slug);
        assertError(await admin(h.app, 'PATCH', '/staff/stf_doesnotexist', { name: 'X' }), 404, 'catalog.staff_not_found');
        assertError(await admin(h.app, 'PATCH', `/staff/${st.id}`, { serviceIds: [there.id] }), 404, 'catalog.service_not_found');
        assertInvalid(
          await admin(h.app, 'PATCH', `/staff/${st.id}`, {
            workingHours: [
              { weekday: 1, start: '09:00', end: '17:00' },
              { weekday: 1, start: '16:00', end: '18:00' },
            ],
          }),
          'body.workingHours[1]',
        );
        assertInvalid(await admin(h.app, 'PATCH', `/staff/${st.id}`, { locationSlug: other.slug }), 'body.locationSlug');
        const after = (await adminOk(h.app, 'PATCH', `/staff/${st.id}`, {})).staff;
        assert.deepEqual(after.workingHours, st.workingHours);
      });
    });

    describe('time off', () => {
      test("local times convert to UTC in the location's zone, summer and winter", async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug, { timezone: 'Europe/Budapest' });
        const st = await createStaff(h.app, biz.slug, loc.slug);
        const r = await admin(h.app, 'POST', `/staff/${st.id}/time-off`, {
          from: { date: '2026-07-01', time: '10:00' },
          to: { date: '2026-07-01', time: '12:30' },
        });
        assert.equal(r.status, 200, r.raw);
        const t = r.body.data.timeOff;
        assert.match(t.id, /^off_/);
        assert.equal(t.staffId, st.id);
        assert.equal(t.timezone, 'Europe/Budapest');
        assert.equal(t.startAtUtc, '2026-07-01T08:00:00.000Z');
        assert.equal(t.endAtUtc, '2026-07-01T10:30:00.000Z');
        assert.deepEqual(t.from, { date: '2026-07-01', time: '10:00' });
        const w = (
          await adminOk(h.app, 'POST', `/staff/${st.id}/time-off`, {
            from: { date: '2026-12-24', time: '00:00' },
            to: { date: '2026-12-27', time: '00:00' },
          })
        ).timeOff;
        assert.equal(w.startAtUtc, '2026-12-23T23:00:00.000Z');
        assert.equal(w.endAtUtc, '2026-12-26T23:00:00.000Z');
        const rows = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM time_off WHERE staff_id = $1', [st.id]);
        assert.equal(rows.rows[0]!.n, 2);
      });

      test('a time in the spring-forward gap is the instant of the jump, as a working-hours edge is', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug, { timezone: 'Europe/Budapest' });
        const st = await createStaff(h.app, biz.slug, loc.slug);
        const t = (
          await adminOk(h.app, 'POST', `/staff/${st.id}/time-off`, {
            from: { date: '2026-03-29', time: '02:30' },
            to: { date: '2026-03-29', time: '04:00' },
          })
        ).timeOff;
        // 02:30 does not exist that day (02:00 CET jumps to 03:00 CEST): the time off starts at the jump
        assert.equal(t.startAtUtc, '2026-03-29T01:00:00.000Z');
        assert.equal(t.endAtUtc, '2026-03-29T02:00:00.000Z');
        assert.deepEqual(t.from, { date: '2026-03-29', time: '03:00' });
      });

      test('validation: from before to, real dates, times HH:MM, unknown staff', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const st = await createStaff(h.app, biz.slug, loc.slug);
        const post = (body: object, id = st.id) => admin(h.app, 'POST', `/staff/${id}/time-off`, body);
        const d = (date: string, time: string) => ({ date, time });
        assertInvalid(await post({ from: d('2026-07-01', '12:00'), to: d('2026-07-01', '12:00') }), 'body.to');
        assertInvalid(await post({ from: d('2026-07-02', '09:00'), to: d('2026-07-01', '12:00') }), 'body.to');
        assertInvalid(await post({ from: d('2026-02-30', '09:00'), to: d('2026-03-01', '12:00') }), 'body.from.date');
        assertInvalid(await post({ from: d('2026-07-01', '25:00'), to: d('2026-07-02', '12:00') }), 'body.from.time');
        assertInvalid(await post({ from: d('2026-07-01', '09:00') }), 'body.to');
        assertError(
          await post({ from: d('2026-07-01', '09:00'), to: d('2026-07-01', '10:00') }, 'stf_nobody'),
          404,
          'catalog.staff_not_found',
        );
      });
    });

    describe('group sessions', () => {
      async function groupSetup() {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const yoga = await createService(h.app, biz.slug, loc.slug, { name: 'Yoga', bookingMode: 'groupSession' });
        const st = await createStaff(h.app, biz.slug, loc.slug, { serviceIds: [yoga.id] });
        return { biz, loc, yoga, st };
      }

      test('create a session', async () => {
        const { yoga, st } = await groupSetup();
        const r = await admin(h.app, 'POST', `/services/${yoga.id}/sessions`, {
          staffId: st.id,
          startAtUtc: '2026-09-01T16:00:00Z',
          endAtUtc: '2026-09-01T17:00:00+00:00',
          capacityMax: 8,
          priceMinor: 2500,
        });
        assert.equal(r.status, 200, r.raw);
        const s = r.body.data.session;
        assert.match(s.id, /^ses_/);
        assert.deepEqual(
          { ...s, id: undefined, createdAt: undefined },
          {
            id: undefined,
            serviceId: yoga.id,
            staffId: st.id,
            startAtUtc: '2026-09-01T16:00:00.000Z',
            endAtUtc: '2026-09-01T17:00:00.000Z',
            capacityMax: 8,
            seatsTaken: 0,
            remainingSeats: 8,
            priceMinor: 2500,
            createdAt: undefined,
          },
        );
        const noPrice = (
          await adminOk(h.app, 'POST', `/services/${yoga.id}/sessions`, {
            staffId: st.id,
            startAtUtc: '2026-09-02T16:00:00Z',
            endAtUtc: '2026-09-02T17:00:00Z',
            capacityMax: 1,
          })
        ).session;
        assert.equal(noPrice.priceMinor, null);
      });

      test('validation and references', async () => {
        const { biz, loc, yoga, st } = await groupSetup();
        const body = { staffId: st.id, startAtUtc: '2026-09-01T16:00:00Z', endAtUtc: '2026-09-01T17:00:00Z', capacityMax: 5 };
        const post = (b: object, serviceId = yoga.id) => admin(h.app, 'POST', `/services/${serviceId}/sessions`, b);
        assertInvalid(await post({ ...body, endAtUtc: body.startAtUtc }), 'body.endAtUtc');
        assertInvalid(await post({ ...body, capacityMax: 0 }), 'body.capacityMax');
        assertInvalid(await post({ ...body, priceMinor: -1 }), 'body.priceMinor');
        assertInvalid(await post({ ...body, priceMinor: 1.5 }), 'body.priceMinor');
        assertInvalid(await post({ ...body, startAtUtc: '2026-09-01 16:00' }), 'body.startAtUtc');
        assertError(await post(body, 'svc_nothing'), 404, 'catalog.service_not_found');

        const standard = await createService(h.app, biz.slug, loc.slug);
        assertInvalid(await post(body, standard.id), 'params.serviceId');

        const notPerforming = await createStaff(h.app, biz.slug, loc.slug);
        assertError(await post({ ...body, staffId: notPerforming.id }), 404, 'catalog.staff_not_found');
        const otherLoc = await createLocation(h.app, biz.slug);
        const elsewhere = await createStaff(h.app, biz.slug, otherLoc.slug);
        assertError(await post({ ...body, staffId: elsewhere.id }), 404, 'catalog.staff_not_found');
        assertError(await post({ ...body, staffId: 'stf_nobody' }), 404, 'catalog.staff_not_found');
        await adminOk(h.app, 'PATCH', `/staff/${st.id}`, { active: false });
        assertError(await post(body), 404, 'catalog.staff_not_found');
      });
    });

    describe('plan limits', () => {
      test('maxLocations', async () => {
        const biz = await createBusiness(h.app, { plan: 'pro', status: 'active', maxLocations: 1 });
        await createLocation(h.app, biz.slug);
        const r = await admin(h.app, 'POST', `/businesses/${biz.slug}/locations`, {
          slug: 'second',
          name: 'Second',
          timezone: 'Europe/Budapest',
          address: ADDRESS,
        });
        assertError(r, 403, 'subscription.quota_exceeded');
        assert.deepEqual(r.body.error.details, { limit: 'maxLocations', max: 1 });
        assert.match(r.body.error.message, /at most 1 locations/);
        await adminOk(h.app, 'PATCH', `/businesses/${biz.slug}/subscription`, { maxLocations: null });
        await createLocation(h.app, biz.slug);
      });

      test('maxActiveServices counts active services only, re-activation included', async () => {
        const biz = await createBusiness(h.app, { plan: 'pro', status: 'active', maxActiveServices: 1 });
        const loc = await createLocation(h.app, biz.slug);
        const first = await createService(h.app, biz.slug, loc.slug);
        const body = {
          locationSlug: loc.slug,
          name: 'Second',
          durationMinutes: 30,
          priceType: 'negotiable',
          price: null,
          requestAcceptancePolicy: 'manual',
        };
        const r = await admin(h.app, 'POST', `/businesses/${biz.slug}/services`, body);
        assertError(r, 403, 'subscription.quota_exceeded');
        assert.deepEqual(r.body.error.details, { limit: 'maxActiveServices', max: 1 });
        const inactive = (await adminOk(h.app, 'POST', `/businesses/${biz.slug}/services`, { ...body, active: false })).service;
        assert.equal(inactive.active, false);
        const re = await admin(h.app, 'PATCH', `/services/${inactive.id}`, { active: true });
        assertError(re, 403, 'subscription.quota_exceeded');
        // other edits of an inactive service and of the active one are not limited
        await adminOk(h.app, 'PATCH', `/services/${inactive.id}`, { name: 'Still inactive' });
        await adminOk(h.app, 'PATCH', `/services/${first.id}`, { active: true, name: 'First' });
        await adminOk(h.app, 'PATCH', `/services/${first.id}`, { active: false });
        const swapped = (await adminOk(h.app, 'PATCH', `/services/${inactive.id}`, { active: true })).service;
        assert.equal(swapped.active, true);
      });

      test('maxStaffMembers counts active staff only, re-activation included', async () => {
        const biz = await createBusiness(h.app, { plan: 'pro', status: 'active', maxStaffMembers: 1 });
        const loc = await createLocation(h.app, biz.slug);
        const first = await createStaff(h.app, biz.slug, loc.slug);
        const body = { locationSlug: loc.slug, name: 'Second', serviceIds: [], workingHours: [] };
        const r = await admin(h.app, 'POST', `/businesses/${biz.slug}/staff`, body);
        assertError(r, 403, 'subscription.quota_exceeded');
        assert.deepEqual(r.body.error.details, { limit: 'maxStaffMembers', max: 1 });
        const inactive = (await adminOk(h.app, 'POST', `/businesses/${biz.slug}/staff`, { ...body, active: false })).staff;
        assertError(await admin(h.app, 'PATCH', `/staff/${inactive.id}`, { active: true }), 403, 'subscription.quota_exceeded');
        await adminOk(h.app, 'PATCH', `/staff/${first.id}`, { active: false });
        assert.equal((await adminOk(h.app, 'PATCH', `/staff/${inactive.id}`, { active: true })).staff.active, true);
      });

      test('a limit of 0 blocks the first one', async () => {
        const biz = await createBusiness(h.app, { plan: 'pro', status: 'active', maxLocations: 0 });
        const r = await admin(h.app, 'POST', `/businesses/${biz.slug}/locations`, {
          slug: 'a',
          name: 'A',
          timezone: 'Europe/Budapest',
          address: ADDRESS,
        });
        assertError(r, 403, 'subscription.quota_exceeded');
      });

      test('two concurrent creates at limit - 1: exactly one wins (locations, services, staff)', async () => {
        const biz = await createBusiness(h.app, {
          plan: 'pro',
          status: 'active',
          maxLocations: 2,
          maxActiveServices: 2,
          maxStaffMembers: 2,
        });
        const loc = await createLocation(h.app, biz.slug);
        await createService(h.app, biz.slug, loc.slug);
        await createStaff(h.app, biz.slug, loc.slug);

        const cases: Array<[string, (i: number) => object]> = [
          ['locations', (i) => ({ slug: `race-${i}`, name: `Race ${i}`, timezone: 'Europe/Budapest', address: ADDRESS })],
          [
            'services',
            (i) => ({
              locationSlug: loc.slug,
              name: `Race ${i}`,
              durationMinutes: 30,
              priceType: 'negotiable',
              price: null,
              requestAcceptancePolicy: 'manual',
            }),
          ],
          ['staff', (i) => ({ locationSlug: loc.slug, name: `Race ${i}`, serviceIds: [], workingHours: [] })],
        ];
        for (const [resource, body] of cases) {
          const results = await Promise.all([1, 2].map((i) => admin(h.app, 'POST', `/businesses/${biz.slug}/${resource}`, body(i))));
          const statuses = results.map((r) => r.status).sort();
          assert.deepEqual(statuses, [200, 403], `${resource}: ${results.map((r) => r.raw).join(' | ')}`);
          const lost = results.find((r) => r.status === 403)!;
          assert.equal(lost.body.error.code, 'subscription.quota_exceeded');
        }
        const counts = await h.db.query<{ l: number; s: number; st: number }>(
          `SELECT (SELECT count(*)::int FROM locations WHERE business_id = $1) AS l,
                  (SELECT count(*)::int FROM services WHERE business_id = $1 AND active) AS s,
                  (SELECT count(*)::int FROM staff WHERE business_id = $1 AND active) AS st`,
          [biz.id],
        );
        assert.deepEqual(counts.rows[0], { l: 2, s: 2, st: 2 });
      });
    });
  });
}
