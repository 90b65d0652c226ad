import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashSecret } from '../src/domain/api-key-secret.ts';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, startHarness, type Harness } from './helpers/harness.ts';
import { BASE_NOW, createOk, day } from './helpers/bookings.ts';
import { api, createBusiness, createKey, createLocation, createSalon, createService, createStaff, uniqueSlug } from './helpers/fixtures.ts';
import { addMember } from './helpers/members.ts';

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

    describe('time off', () => {
      const d = (date: string, time: string) => ({ date, time });

      test('listed by start, as POST answered it; from and to are local days, both included', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug, { timezone: 'Europe/Budapest' });
        const st = await createStaff(h.app, biz.slug, loc.slug);
        const other = await createStaff(h.app, biz.slug, loc.slug);
        const post = async (staffId: string, from: object, to: object) =>
          (await adminOk(h.app, 'POST', `/staff/${staffId}/time-off`, { from, to })).timeOff;
        const late = await post(st.id, d('2026-07-10', '09:00'), d('2026-07-10', '12:00'));
        // 00:30 local on the 5th is still the 4th in UTC: days are the location's.
        const early = await post(st.id, d('2026-07-05', '00:30'), d('2026-07-05', '02:00'));
        const across = await post(st.id, d('2026-07-06', '22:00'), d('2026-07-08', '08:00'));
        await post(other.id, d('2026-07-05', '10:00'), d('2026-07-05', '11:00'));
        assert.equal(early.startAtUtc, '2026-07-04T22:30:00.000Z');

        const list = async (query = '') => (await adminOk(h.app, 'GET', `/staff/${st.id}/time-off${query}`)).timeOff;
        assert.deepEqual(await list(), [early, across, late]);
        assert.deepEqual(await list('?from=2026-07-05&to=2026-07-05'), [early]);
        assert.deepEqual(await list('?from=2026-07-07&to=2026-07-07'), [across]);
        assert.deepEqual(await list('?from=2026-07-08'), [across, late]);
        assert.deepEqual(await list('?to=2026-07-04'), []);
        assert.deepEqual(await list('?to=2026-07-06'), [early, across]);
        assert.deepEqual(await list('?from=2026-07-11'), []);
      });

      test('query validation and unknown staff', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const st = await createStaff(h.app, biz.slug, loc.slug);
        const get = (query: string, id = st.id) => admin(h.app, 'GET', `/staff/${id}/time-off${query}`);
        assertError(await get('?from=2026-07-02&to=2026-07-01'), 400, 'request.validation_failed');
        assertError(await get('?from=2026-02-30'), 400, 'request.validation_failed');
        assertError(await get('?to=2026-13-01'), 400, 'request.validation_failed');
        assertError(await get('?from=tomorrow'), 400, 'request.validation_failed');
        assert.deepEqual((await adminOk(h.app, 'GET', `/staff/${st.id}/time-off?from=2026-07-01&to=2026-07-01`)).timeOff, []);
        assertError(await get('', 'stf_nobody'), 404, 'catalog.staff_not_found');
      });

      test('DELETE answers the time off as it was, removes it, and frees its slots again', async () => {
        h.clock.now = new Date('2026-06-01T06:00:00.000Z');
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug, { timezone: 'Europe/Budapest' });
        const service = await createService(h.app, biz.slug, loc.slug);
        const st = await createStaff(h.app, biz.slug, loc.slug, { serviceIds: [service.id] });
        const key = await createKey(h.app, biz.slug);
        const starts = async () => {
          const r = await api(h.app, key.secret, 'POST', '/availability/search', {
            salonSlug: biz.slug,
            locationSlug: loc.slug,
            serviceId: service.id,
            dateRange: { from: '2026-06-08', to: '2026-06-08' },
          });
          assert.equal(r.status, 200, r.raw);
          return r.body.data.slots.map((s: { startTime: string }) => s.startTime);
        };
        const before = await starts();
        assert.ok(before.includes('10:00'));

        const off = (
          await adminOk(h.app, 'POST', `/staff/${st.id}/time-off`, { from: d('2026-06-08', '10:00'), to: d('2026-06-08', '12:00') })
        ).timeOff;
        assert.ok(!(await starts()).includes('10:00'));

        const removed = await admin(h.app, 'DELETE', `/time-off/${off.id}`);
        assert.equal(removed.status, 200, removed.raw);
        assert.deepEqual(removed.body.data.timeOff, off);
        assert.deepEqual((await adminOk(h.app, 'GET', `/staff/${st.id}/time-off`)).timeOff, []);
        assert.deepEqual(await starts(), before);

        assertError(await admin(h.app, 'DELETE', `/time-off/${off.id}`), 404, 'request.not_found');
      });
    });

    describe('group sessions', () => {
      test('every session of the service by start, as POST answered it, with capacityMax and seatsTaken', async () => {
        h.clock.now = new Date(BASE_NOW);
        const salon = await createSalon(h.app);
        const yoga = await createService(h.app, salon.business.slug, salon.location.slug, { name: 'Yoga', bookingMode: 'groupSession' });
        const annaId = salon.staff[0]!.id;
        await adminOk(h.app, 'PATCH', `/staff/${annaId}`, { serviceIds: [salon.service.id, salon.manualService.id, yoga.id] });
        const session = async (date: string, capacityMax: number) =>
          (
            await adminOk(h.app, 'POST', `/services/${yoga.id}/sessions`, {
              staffId: annaId,
              startAtUtc: `${date}T08:00:00.000Z`,
              endAtUtc: `${date}T09:00:00.000Z`,
              capacityMax,
            })
          ).session;
        const later = await session(day(3), 2);
        const sooner = await session(day(2), 8);
        assert.deepEqual((await adminOk(h.app, 'GET', `/services/${yoga.id}/sessions`)).sessions, [sooner, later]);

        const search = await api(h.app, salon.key.secret, 'POST', '/availability/search', {
          salonSlug: salon.business.slug,
          locationSlug: salon.location.slug,
          serviceId: yoga.id,
          dateRange: { from: day(3), to: day(3) },
        });
        const slot = search.body.data.slots.find((s: any) => s.sessionId === later.id);
        assert.ok(slot, search.raw);
        await createOk(h, salon, {
          service: { id: yoga.id, pricingVersion: '' },
          staffId: undefined,
          expectedPricingVersion: undefined,
          slot: undefined,
          sessionId: later.id,
          slotToken: slot.slotToken,
        });
        const { sessions } = await adminOk(h.app, 'GET', `/services/${yoga.id}/sessions`);
        assert.deepEqual(sessions, [sooner, { ...later, seatsTaken: 1, remainingSeats: 1 }]);
      });

      test('a standard service has no sessions; an unknown service is 404', async () => {
        const biz = await createBusiness(h.app);
        const loc = await createLocation(h.app, biz.slug);
        const cut = await createService(h.app, biz.slug, loc.slug);
        assert.deepEqual((await adminOk(h.app, 'GET', `/services/${cut.id}/sessions`)).sessions, []);
        assertError(await admin(h.app, 'GET', '/services/svc_unknown/sessions'), 404, 'catalog.service_not_found');
      });
    });

    describe('api keys', () => {
      const FIELDS = ['capabilities', 'createdAt', 'expiresAt', 'id', 'kind', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'tier', 'type'];

      test('every key, revoked ones included, by name, as POST and DELETE answered them; never the secret or its hash', async () => {
        const biz = await createBusiness(h.app);
        const post = async (body: object) =>
          (
            await adminOk(h.app, 'POST', `/businesses/${biz.slug}/api-keys`, {
              type: 'integration',
              kind: 'owner',
              capabilities: ['services.read'],
              ...body,
            })
          ).apiKey;
        const zed = await post({ name: 'Zed' });
        const booking = await post({ name: 'booking site', tier: 'elevated', expiresAt: '2099-01-01T00:00:00.000Z' });
        const partner = await post({ name: 'Partner', kind: 'guest_partner', capabilities: ['availability.read'] });
        await addMember(h.db, biz.id, `user-${biz.slug}`);
        const personal = await post({ name: 'phone', type: 'personal', userId: `user-${biz.slug}` });
        const revoked = (await adminOk(h.app, 'DELETE', `/api-keys/${zed.id}`)).apiKey;
        assert.notEqual(revoked.revokedAt, null);

        const r = await admin(h.app, 'GET', `/businesses/${biz.slug}/api-keys`);
        assert.equal(r.status, 200, r.raw);
        const withoutSecret = ({ secret: _secret, ...rest }: any) => rest;
        assert.deepEqual(r.body.data.apiKeys, [booking, partner, personal, revoked].map(withoutSecret));
        for (const k of r.body.data.apiKeys) {
          assert.deepEqual(
            Object.keys(k)
              .filter((f) => f !== 'userId')
              .sort(),
            FIELDS,
          );
          assert.equal(k.lastUsedAt, null);
        }
        for (const created of [zed, booking, partner, personal]) {
          assert.ok(!r.raw.includes(created.secret), 'a secret in the list');
          assert.ok(!r.raw.includes(hashSecret(created.secret)), 'a secret hash in the list');
        }
        assert.equal(r.body.data.apiKeys[2].userId, `user-${biz.slug}`);
      });

      test('lastUsedAt: set by a request with the key, then written at most once a minute', async () => {
        const biz = await createBusiness(h.app);
        const key = await createKey(h.app, biz.slug);
        const lastUsed = async () => (await adminOk(h.app, 'GET', `/businesses/${biz.slug}/api-keys`)).apiKeys[0].lastUsedAt;
        const use = async () => assert.equal((await api(h.app, key.secret, 'GET', '/subscription')).status, 200);
        assert.equal(await lastUsed(), null);

        await use();
        const first = await lastUsed();
        assert.ok(first !== null && Math.abs(Date.parse(first) - Date.now()) < 60_000, first);
        await use();
        assert.equal(await lastUsed(), first, 'written again within the minute');

        await h.db.query(`UPDATE api_keys SET last_used_at = last_used_at - interval '61 seconds' WHERE id = $1`, [key.id]);
        // A key served from memory is read again (and stamped) once its entry is a minute old; the
        // row was aged by hand, so the entry is aged too.
        h.app.ctx.caches.clear();
        const aged = await lastUsed();
        await use();
        const second = await lastUsed();
        assert.ok(Date.parse(second) > Date.parse(aged), `${aged} -> ${second}`);

        // A rejected key (unknown secret) records nothing; a revoked key is no longer found.
        await adminOk(h.app, 'DELETE', `/api-keys/${key.id}`);
        await h.db.query(`UPDATE api_keys SET last_used_at = NULL WHERE id = $1`, [key.id]);
        assert.equal((await api(h.app, key.secret, 'GET', '/subscription')).status, 401);
        assert.equal(await lastUsed(), null);
      });

      test('an unknown business is 404', async () => {
        assertError(await admin(h.app, 'GET', `/businesses/${uniqueSlug('nope')}/api-keys`), 404, 'request.not_found');
      });
    });
  });
}
