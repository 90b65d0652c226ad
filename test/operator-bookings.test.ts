import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, type Harness } from './helpers/harness.ts';
import { api, createSalon } from './helpers/fixtures.ts';
import {
  bookingEvents,
  bookingHarness,
  createOk,
  day,
  expectError,
  getBooking,
  operatorOk,
  SECRET_EMAIL,
  SECRET_PHONE_DIGITS,
} from './helpers/bookings.ts';

const E164 = `+3630${SECRET_PHONE_DIGITS}`;

for (const target of dbTargets()) {
  describe(`bookings as the business sees them [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    test('operator reads and transitions carry guest { name, phone, email }; the public GET of the same booking does not', async () => {
      const salon = await createSalon(h.app);
      const created = await createOk(h, salon, { service: salon.manualService, startTime: '10:00' });
      const guest = { name: 'Kiss Éva', phone: E164, email: SECRET_EMAIL };

      const list = await admin(h.app, 'GET', `/businesses/${salon.business.slug}/bookings`);
      assert.equal(list.status, 200, list.raw);
      assert.deepEqual(list.body.data.bookings[0].guest, guest);
      const accepted = await operatorOk(h, created.bookingId, 'accept');
      assert.deepEqual(accepted.guest, guest);
      assert.equal(accepted.status, 'confirmed');

      const pub = await getBooking(h, salon, created.bookingId);
      assert.equal(pub.status, 200, pub.raw);
      assert.equal(pub.body.data.booking.guest, undefined);
      assert.ok(!pub.raw.includes(SECRET_PHONE_DIGITS), pub.raw);
      assert.ok(!pub.raw.includes(SECRET_EMAIL), pub.raw);
      // Apart from the contact, the two views are the same booking.
      const { guest: _g, ...rest } = accepted;
      assert.deepEqual(rest, pub.body.data.booking);
    });

    test('manual create answers with the contact; email null when none (or invalid) was given', async () => {
      const salon = await createSalon(h.app);
      const r = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: salon.staff[0]!.id,
        date: day(3),
        startTime: '10:00',
        guest: { name: 'Walk-in', phone: '06 30 111 2233', email: 'not an address' },
      });
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(r.body.data.booking.guest, { name: 'Walk-in', phone: '+36301112233', email: null });
      const pub = await api(h.app, salon.key.secret, 'GET', `/bookings/${r.body.data.booking.bookingId}`);
      assert.ok(!pub.raw.includes('1112233'), pub.raw);
      expectError(await admin(h.app, 'POST', '/bookings/bkg_nope/accept'), 404, 'booking.not_found');
    });

    test('GET /bookings/{id} is the business view; /events equals the public events; unknown id → 404 booking.not_found', async () => {
      const salon = await createSalon(h.app);
      const b = await createOk(h, salon, { service: salon.manualService, startTime: '11:00' });
      await operatorOk(h, b.bookingId, 'accept');
      const one = await admin(h.app, 'GET', `/bookings/${b.bookingId}`);
      assert.equal(one.status, 200, one.raw);
      assert.deepEqual(one.body.data.booking.guest, { name: 'Kiss Éva', phone: E164, email: SECRET_EMAIL });
      const { guest: _g, ...rest } = one.body.data.booking;
      assert.deepEqual(rest, (await getBooking(h, salon, b.bookingId)).body.data.booking);

      const events = await admin(h.app, 'GET', `/bookings/${b.bookingId}/events`);
      assert.equal(events.status, 200, events.raw);
      assert.deepEqual(events.body.data.events, await bookingEvents(h, salon, b.bookingId));
      assert.deepEqual(
        events.body.data.events.map((e: any) => e.event),
        ['booking.requested', 'booking.confirmed'],
      );
      assert.ok(!events.raw.includes(SECRET_PHONE_DIGITS), events.raw);

      expectError(await admin(h.app, 'GET', '/bookings/bkg_unknown'), 404, 'booking.not_found');
      expectError(await admin(h.app, 'GET', '/bookings/bkg_unknown/events'), 404, 'booking.not_found');
    });
  });
}
