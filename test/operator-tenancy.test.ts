import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { bookingHarness, day } from './helpers/bookings.ts';
import { createKey, createService, createStaff, createSalon, uniqueSlug, type SalonFixture } from './helpers/fixtures.ts';
import { addMember } from './helpers/members.ts';

/**
 * Ids in request bodies and queries (not the route's path, which operator-auth.ts checks) that name
 * something of ANOTHER business: each answers exactly as an unknown id does, and nothing changes.
 * The platform token reaches every business, so these hold for members a fortiori.
 */

type Res = { status: number; body: any; raw: string };

function assertError(r: Res, status: number, code: string, field?: string): void {
  assert.equal(r.status, status, r.raw);
  assert.equal(r.body.ok, false, r.raw);
  assert.equal(r.body.error.code, code, r.raw);
  if (field !== undefined) {
    assert.ok(
      (r.body.error.details?.issues ?? []).some((i: any) => i.path === field),
      `expected an issue naming ${field}: ${r.raw}`,
    );
  }
}

/** The foreign id answers exactly like an unknown one. */
function likeUnknown(foreign: Res, unknown: Res, status: number, code: string, field?: string): void {
  assertError(unknown, status, code, field);
  assertError(foreign, status, code, field);
}

for (const target of dbTargets()) {
  describe(`operator tenancy of ids in bodies and queries [${target.name}]`, () => {
    let h: Harness;
    let mine: SalonFixture;
    let theirs: SalonFixture;
    before(async () => {
      h = await bookingHarness(target);
      mine = await createSalon(h.app);
      theirs = await createSalon(h.app);
    });
    after(() => h.close());

    const bookingsOf = async (s: SalonFixture) => (await adminOk(h.app, 'GET', `/businesses/${s.business.slug}/bookings`)).bookings;
    const servicesOf = async (s: SalonFixture) => (await adminOk(h.app, 'GET', `/businesses/${s.business.slug}/services`)).services;
    const staffOf = async (s: SalonFixture) => (await adminOk(h.app, 'GET', `/businesses/${s.business.slug}/staff`)).staff;

    describe('manual booking: POST /businesses/{slug}/bookings', () => {
      const body = (over: Record<string, unknown>) => ({
        locationSlug: mine.location.slug,
        serviceId: mine.service.id,
        staffId: mine.staff[0]!.id,
        date: day(3),
        startTime: '10:00',
        guest: { name: 'Guest', phone: '+36301234567' },
        ...over,
      });
      const post = (over: Record<string, unknown>) => admin(h.app, 'POST', `/businesses/${mine.business.slug}/bookings`, body(over));

      test('locationSlug, serviceId, staffId of another business answer as unknown ones; no booking anywhere', async () => {
        const before = [await bookingsOf(mine), await bookingsOf(theirs)];
        likeUnknown(
          await post({ locationSlug: theirs.location.slug }),
          await post({ locationSlug: uniqueSlug('nope') }),
          404,
          'request.not_found',
        );
        likeUnknown(
          await post({ serviceId: theirs.service.id }),
          await post({ serviceId: 'svc_unknown' }),
          404,
          'catalog.service_not_found',
        );
        likeUnknown(await post({ staffId: theirs.staff[0]!.id }), await post({ staffId: 'stf_unknown' }), 404, 'catalog.staff_not_found');
        // all three of the other business, under my slug
        assertError(
          await post({ locationSlug: theirs.location.slug, serviceId: theirs.service.id, staffId: theirs.staff[0]!.id }),
          404,
          'request.not_found',
        );
        assert.deepEqual([await bookingsOf(mine), await bookingsOf(theirs)], before);
      });
    });

    describe('booking moves: POST /bookings/{id}/propose and /reschedule', () => {
      test('a staffId of another business answers as an unknown one; the booking is unchanged', async () => {
        const booking = (
          await adminOk(h.app, 'POST', `/businesses/${mine.business.slug}/bookings`, {
            locationSlug: mine.location.slug,
            serviceId: mine.service.id,
            staffId: mine.staff[0]!.id,
            date: day(4),
            startTime: '11:00',
            guest: { name: 'Guest', phone: '+36301234567' },
          })
        ).booking;
        const read = async () => (await adminOk(h.app, 'GET', `/bookings/${booking.bookingId}`)).booking;
        const before = await read();
        for (const action of ['propose', 'reschedule']) {
          const move = (staffId: string) =>
            admin(h.app, 'POST', `/bookings/${booking.bookingId}/${action}`, { date: day(5), startTime: '12:00', staffId });
          likeUnknown(await move(theirs.staff[0]!.id), await move('stf_unknown'), 404, 'catalog.staff_not_found');
        }
        assert.deepEqual(await read(), before);
        assert.deepEqual(await bookingsOf(theirs), []);
      });
    });

    describe('?locationSlug= filters', () => {
      for (const path of ['bookings', 'services', 'staff', 'agenda']) {
        test(`GET /businesses/{slug}/${path}: another business's location finds what an unknown one finds`, async () => {
          const q = (locationSlug: string) =>
            admin(
              h.app,
              'GET',
              `/businesses/${mine.business.slug}/${path}?locationSlug=${locationSlug}${path === 'agenda' ? `&date=${day(3)}` : ''}`,
            );
          const unknown = await q(uniqueSlug('nope'));
          const foreign = await q(theirs.location.slug);
          assert.ok(unknown.status >= 400 && unknown.status < 500, unknown.raw);
          likeUnknown(foreign, unknown, unknown.status, unknown.body.error.code);
        });
      }
    });

    describe('services', () => {
      test('POST /businesses/{slug}/services with a locationSlug of another business: as unknown; no service created', async () => {
        const before = [await servicesOf(mine), await servicesOf(theirs)];
        const post = (locationSlug: string) =>
          admin(h.app, 'POST', `/businesses/${mine.business.slug}/services`, {
            locationSlug,
            name: 'Foreign',
            durationMinutes: 30,
            priceType: 'fixed',
            price: { amount: 5000, currency: 'HUF' },
            requestAcceptancePolicy: 'automatic',
          });
        likeUnknown(await post(theirs.location.slug), await post(uniqueSlug('nope')), 404, 'request.not_found');
        assert.deepEqual([await servicesOf(mine), await servicesOf(theirs)], before);
      });

      test('PATCH /services/{id} with a locationSlug of another business: as unknown; unchanged', async () => {
        const read = async () => (await adminOk(h.app, 'GET', `/services/${mine.service.id}`)).service;
        const before = await read();
        const patch = (locationSlug: string) => admin(h.app, 'PATCH', `/services/${mine.service.id}`, { locationSlug, name: 'Moved' });
        likeUnknown(
          await patch(theirs.location.slug),
          await patch(uniqueSlug('nope')),
          400,
          'request.validation_failed',
          'body.locationSlug',
        );
        assert.deepEqual(await read(), before);
      });

      test('POST /services/{id}/sessions with a staffId of another business: as unknown; no session', async () => {
        const yoga = await createService(h.app, mine.business.slug, mine.location.slug, { name: 'Yoga', bookingMode: 'groupSession' });
        await createStaff(h.app, mine.business.slug, mine.location.slug, { name: 'Yogi', serviceIds: [yoga.id] });
        // theirs: a group service of their own that their staff member performs
        const theirYoga = await createService(h.app, theirs.business.slug, theirs.location.slug, {
          name: 'Yoga',
          bookingMode: 'groupSession',
        });
        const theirYogi = await createStaff(h.app, theirs.business.slug, theirs.location.slug, {
          name: 'Yogi',
          serviceIds: [theirYoga.id],
        });
        const post = (staffId: string) =>
          admin(h.app, 'POST', `/services/${yoga.id}/sessions`, {
            staffId,
            startAtUtc: '2031-06-10T16:00:00Z',
            endAtUtc: '2031-06-10T17:00:00Z',
            capacityMax: 8,
          });
        likeUnknown(await post(theirYogi.id), await post('stf_unknown'), 404, 'catalog.staff_not_found');
        assert.deepEqual((await adminOk(h.app, 'GET', `/services/${yoga.id}/sessions`)).sessions, []);
        assert.deepEqual((await adminOk(h.app, 'GET', `/services/${theirYoga.id}/sessions`)).sessions, []);
      });
    });

    describe('staff', () => {
      test('POST /businesses/{slug}/staff with a locationSlug or serviceIds of another business: as unknown; no staff created', async () => {
        const before = [await staffOf(mine), await staffOf(theirs)];
        const post = (over: Record<string, unknown>) =>
          admin(h.app, 'POST', `/businesses/${mine.business.slug}/staff`, {
            locationSlug: mine.location.slug,
            name: 'Foreign',
            serviceIds: [],
            workingHours: [],
            ...over,
          });
        likeUnknown(
          await post({ locationSlug: theirs.location.slug }),
          await post({ locationSlug: uniqueSlug('nope') }),
          404,
          'request.not_found',
        );
        likeUnknown(
          await post({ serviceIds: [mine.service.id, theirs.service.id] }),
          await post({ serviceIds: [mine.service.id, 'svc_unknown'] }),
          404,
          'catalog.service_not_found',
        );
        assert.deepEqual([await staffOf(mine), await staffOf(theirs)], before);
      });

      test('PATCH /staff/{id} with serviceIds or a locationSlug of another business: as unknown; unchanged', async () => {
        const staffId = mine.staff[0]!.id;
        const read = async () => (await adminOk(h.app, 'GET', `/staff/${staffId}`)).staff;
        const before = await read();
        const patch = (over: Record<string, unknown>) => admin(h.app, 'PATCH', `/staff/${staffId}`, { name: 'Changed', ...over });
        likeUnknown(
          await patch({ serviceIds: [theirs.service.id] }),
          await patch({ serviceIds: ['svc_unknown'] }),
          404,
          'catalog.service_not_found',
        );
        likeUnknown(
          await patch({ locationSlug: theirs.location.slug }),
          await patch({ locationSlug: uniqueSlug('nope') }),
          400,
          'request.validation_failed',
          'body.locationSlug',
        );
        assert.deepEqual(await read(), before);
      });
    });

    describe('api keys and members', () => {
      const keyBody = (userId: string) => ({ name: 'phone', type: 'personal', kind: 'owner', capabilities: ['services.read'], userId });
      const keysOf = async (s: SalonFixture) => (await adminOk(h.app, 'GET', `/businesses/${s.business.slug}/api-keys`)).apiKeys;

      test('POST /businesses/{slug}/api-keys: a personal key only for a member of that business', async () => {
        const theirMember = uniqueSlug('user');
        await addMember(h.db, theirs.business.id, theirMember);
        const before = [await keysOf(mine), await keysOf(theirs)];
        const post = (userId: string) => admin(h.app, 'POST', `/businesses/${mine.business.slug}/api-keys`, keyBody(userId));
        likeUnknown(await post(theirMember), await post(uniqueSlug('user')), 400, 'request.validation_failed', 'body.userId');
        assert.deepEqual([await keysOf(mine), await keysOf(theirs)], before);
        // and the refusal made no one a member: still refused
        assertError(await post(theirMember), 400, 'request.validation_failed', 'body.userId');

        const myMember = uniqueSlug('user');
        await addMember(h.db, mine.business.id, myMember);
        const r = await post(myMember);
        assert.equal(r.status, 200, r.raw);
        assert.equal(r.body.data.apiKey.userId, myMember);
      });

      test('DELETE /businesses/{slug}/members/{userId} of a member of another business: as unknown; their keys live on', async () => {
        const theirMember = uniqueSlug('user');
        await addMember(h.db, theirs.business.id, theirMember);
        const key = await createKey(h.app, theirs.business.slug, {
          type: 'personal',
          userId: theirMember,
          capabilities: ['services.read'],
        });
        const del = (userId: string) => admin(h.app, 'DELETE', `/businesses/${mine.business.slug}/members/${encodeURIComponent(userId)}`);
        likeUnknown(await del(theirMember), await del(uniqueSlug('user')), 404, 'request.not_found');
        const theirKey = (await keysOf(theirs)).find((k: any) => k.id === key.id);
        assert.equal(theirKey.revokedAt, null);
        // still a member there: another personal key may be issued
        const again = await admin(h.app, 'POST', `/businesses/${theirs.business.slug}/api-keys`, keyBody(theirMember));
        assert.equal(again.status, 200, again.raw);
      });
    });

    describe('locations', () => {
      test('PATCH /businesses/{slug}/locations/{locationSlug} of another business: as unknown; unchanged', async () => {
        const read = async () =>
          (await adminOk(h.app, 'GET', `/businesses/${theirs.business.slug}/locations`)).locations.find(
            (l: any) => l.slug === theirs.location.slug,
          );
        const before = await read();
        const patch = (slug: string) => admin(h.app, 'PATCH', `/businesses/${mine.business.slug}/locations/${slug}`, { name: 'Renamed' });
        likeUnknown(await patch(theirs.location.slug), await patch(uniqueSlug('nope')), 404, 'request.not_found');
        assert.deepEqual(await read(), before);
      });
    });
  });
}
