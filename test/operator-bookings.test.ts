import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { api, createSalon, createStaff } from './helpers/fixtures.ts';
import {
  BASE_NOW,
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
      // Apart from the contact, who booked, the price, the processing parts and the client, the two views are the same booking.
      const { guest: _g, reason: _r, source, createdBy, price, processing, resources, clientId, ...rest } = accepted;
      assert.deepEqual([source, createdBy, price, processing, resources], ['api', null, { amount: 12000, currency: 'HUF' }, [], []]);
      assert.match(clientId, /^cli_[0-9a-z]{20}$/);
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
      const {
        guest: _g,
        reason: _r,
        source: _s,
        createdBy: _c,
        price: _p,
        processing: _pr,
        resources: _rs,
        clientId: _cl,
        ...rest
      } = one.body.data.booking;
      assert.deepEqual(rest, (await getBooking(h, salon, b.bookingId)).body.data.booking);

      const events = await admin(h.app, 'GET', `/bookings/${b.bookingId}/events`);
      assert.equal(events.status, 200, events.raw);
      // The public events, each with who made the change: the API key booked, the platform token accepted.
      assert.deepEqual(
        events.body.data.events.map(({ actor: _a, ...e }: any) => e),
        await bookingEvents(h, salon, b.bookingId),
      );
      assert.deepEqual(
        events.body.data.events.map((e: any) => [e.event, e.actor]),
        [
          ['booking.requested', 'api'],
          ['booking.confirmed', 'operator'],
        ],
      );
      assert.ok(!events.raw.includes(SECRET_PHONE_DIGITS), events.raw);

      expectError(await admin(h.app, 'GET', '/bookings/bkg_unknown'), 404, 'booking.not_found');
      expectError(await admin(h.app, 'GET', '/bookings/bkg_unknown/events'), 404, 'booking.not_found');
    });

    test('agenda: a DST day grouped by staff, time off clipped, a booking spanning into the day, every active staff member', async () => {
      const salon = await createSalon(h.app);
      const [anna, bence] = salon.staff as [any, any];
      const cili = await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds: [] });
      const manual = (staffId: string, date: string, startTime: string, serviceId = salon.service.id) =>
        adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
          locationSlug: salon.location.slug,
          serviceId,
          staffId,
          date,
          startTime,
          guest: { name: `G ${startTime}`, phone: '+36301112233' },
        }).then((d) => d.booking);
      const timeOff = (staffId: string, from: [string, string], to: [string, string]) =>
        adminOk(h.app, 'POST', `/staff/${staffId}/time-off`, {
          from: { date: from[0], time: from[1] },
          to: { date: to[0], time: to[1] },
        });

      // 2026-03-29, Europe/Budapest: 02:00 jumps to 03:00, the day has 23 hours.
      const spanning = await manual(anna.id, '2026-03-28', '23:30', salon.manualService.id);
      const early = await manual(anna.id, '2026-03-29', '03:00');
      await operatorOk(h, early.bookingId, 'complete');
      const morning = await manual(bence.id, '2026-03-29', '10:00');
      await manual(bence.id, '2026-03-30', '00:00');
      await manual(anna.id, '2026-03-28', '22:00');
      h.clock.now = new Date('2026-03-20T12:00:00Z');
      try {
        const requested = await createOk(h, salon, {
          service: salon.manualService,
          staffId: bence.id,
          date: '2026-03-29',
          startTime: '12:00',
        });
        const declined = await createOk(h, salon, {
          service: salon.manualService,
          staffId: bence.id,
          date: '2026-03-29',
          startTime: '14:00',
        });
        await operatorOk(h, declined.bookingId, 'decline');
        await timeOff(anna.id, ['2026-03-28', '20:00'], ['2026-03-29', '01:30']);
        await timeOff(bence.id, ['2026-03-29', '16:00'], ['2026-03-30', '10:00']);
        await timeOff(cili.id, ['2026-03-29', '01:00'], ['2026-03-29', '04:00']);

        const r = await admin(
          h.app,
          'GET',
          `/businesses/${salon.business.slug}/agenda?locationSlug=${salon.location.slug}&date=2026-03-29`,
        );
        assert.equal(r.status, 200, r.raw);
        const agenda = r.body.data.agenda;
        assert.equal(agenda.date, '2026-03-29');
        assert.deepEqual(agenda.location, { slug: salon.location.slug, timezone: 'Europe/Budapest' });
        assert.deepEqual(
          agenda.staff.map((s: any) => [s.name, s.workingHours, s.timeOff, s.bookings.map((b: any) => b.bookingId)]),
          [
            ['Anna', [{ start: '09:00', end: '17:00' }], [{ from: '00:00', to: '01:30' }], [spanning.bookingId, early.bookingId]],
            ['Bence', [{ start: '09:00', end: '17:00' }], [{ from: '16:00', to: '24:00' }], [morning.bookingId, requested.bookingId]],
            // 01:00 to 04:00 on the wall clock is two hours that day
            ['Cili', [{ start: '09:00', end: '17:00' }], [{ from: '01:00', to: '04:00' }], []],
          ],
        );
        const annaBookings = agenda.staff[0].bookings;
        assert.equal(annaBookings[1].status, 'completed');
        assert.equal(annaBookings[1].confirmedSlot.startTime, '03:00');
        assert.deepEqual(annaBookings[0].guest, { name: 'G 23:30', phone: '+36301112233', email: null });
        assert.equal(agenda.staff[1].bookings[1].status, 'requested');
        assert.deepEqual(agenda.staff[1].bookings[1].guest, { name: 'Kiss Éva', phone: E164, email: SECRET_EMAIL });

        // the day after the change: 24 hours again, nothing of the 29th left but Bence's time off
        const next = await adminOk(
          h.app,
          'GET',
          `/businesses/${salon.business.slug}/agenda?locationSlug=${salon.location.slug}&date=2026-03-30`,
        );
        assert.deepEqual(next.agenda.staff[1].timeOff, [{ from: '00:00', to: '10:00' }]);
        assert.equal(next.agenda.staff[1].bookings.length, 1);
        assert.equal(next.agenda.staff[0].bookings.length, 0);

        expectError(
          await admin(h.app, 'GET', `/businesses/${salon.business.slug}/agenda?locationSlug=nowhere&date=2026-03-29`),
          404,
          'request.not_found',
        );
        expectError(
          await admin(h.app, 'GET', `/businesses/${salon.business.slug}/agenda?locationSlug=${salon.location.slug}&date=2026-02-30`),
          400,
          'request.validation_failed',
        );
      } finally {
        h.clock.now = new Date(BASE_NOW);
      }
    });

    test('decline and cancel keep an optional reason on the event: operator reads show it, public reads, events and payloads never', async () => {
      const salon = await createSalon(h.app);
      const REASON = 'Staff member ill, secret reason 4711';
      const declined = await createOk(h, salon, { service: salon.manualService, startTime: '10:00' });
      const d = await admin(h.app, 'POST', `/bookings/${declined.bookingId}/decline`, { reason: REASON });
      assert.equal(d.status, 200, d.raw);
      assert.equal(d.body.data.booking.status, 'declined');
      assert.equal(d.body.data.booking.reason, REASON);

      const cancelled = await createOk(h, salon, { startTime: '12:00' });
      expectError(
        await admin(h.app, 'POST', `/bookings/${cancelled.bookingId}/cancel`, { reason: 'x'.repeat(501) }),
        400,
        'request.validation_failed',
      );
      expectError(await admin(h.app, 'POST', `/bookings/${cancelled.bookingId}/cancel`, { why: 'no' }), 400, 'request.validation_failed');
      const c = await admin(h.app, 'POST', `/bookings/${cancelled.bookingId}/cancel`, { reason: `${REASON} (cancel)` });
      assert.equal(c.status, 200, c.raw);
      assert.equal(c.body.data.booking.status, 'cancelled');
      expectError(await admin(h.app, 'POST', `/bookings/${cancelled.bookingId}/cancel`), 409, 'booking.invalid_transition');
      const events = await bookingEvents(h, salon, cancelled.bookingId);
      assert.deepEqual(
        events.map((e: any) => e.event),
        ['booking.requested', 'booking.confirmed', 'booking.cancelled'],
      );

      // without a body, and from rescheduleProposed: no reason
      const plain = await createOk(h, salon, { startTime: '14:00' });
      await operatorOk(h, plain.bookingId, 'propose', { date: day(2), startTime: '15:00' });
      const p = await operatorOk(h, plain.bookingId, 'cancel');
      assert.equal(p.status, 'cancelled');
      assert.equal(p.reason, null);

      const one = await adminOk(h.app, 'GET', `/bookings/${declined.bookingId}`);
      assert.equal(one.booking.reason, REASON);
      const list = await adminOk(h.app, 'GET', `/businesses/${salon.business.slug}/bookings`);
      assert.deepEqual(
        list.bookings.map((b: any) => [b.bookingId, b.reason]).sort(),
        [
          [plain.bookingId, null],
          [cancelled.bookingId, `${REASON} (cancel)`],
          [declined.bookingId, REASON],
        ].sort(),
      );

      const publicRaw = [
        (await getBooking(h, salon, declined.bookingId)).raw,
        (await getBooking(h, salon, cancelled.bookingId)).raw,
        (await api(h.app, salon.key.secret, 'GET', `/bookings?salonSlug=${salon.business.slug}`)).raw,
        (await api(h.app, salon.key.secret, 'GET', `/bookings/${declined.bookingId}/events`)).raw,
        (await api(h.app, salon.key.secret, 'GET', `/bookings/${cancelled.bookingId}/events`)).raw,
        (await admin(h.app, 'GET', `/bookings/${cancelled.bookingId}/events`)).raw,
      ];
      const stored = await h.db.query<{ payload: string; reason: string | null }>(
        'SELECT payload, reason FROM booking_events WHERE business_id = $1 ORDER BY booking_id, sequence',
        [salon.business.id],
      );
      assert.deepEqual(
        stored.rows
          .map((r) => r.reason)
          .filter((r) => r !== null)
          .sort(),
        [REASON, `${REASON} (cancel)`].sort(),
      );
      for (const raw of [...publicRaw, ...stored.rows.map((r) => r.payload)]) {
        assert.ok(!raw.includes('4711'), `the reason leaks: ${raw}`);
        assert.ok(!raw.includes('"reason"'), raw);
      }
    });
  });
}
