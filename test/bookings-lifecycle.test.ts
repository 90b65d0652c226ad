import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { api, createSalon, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import {
  bookingEvents,
  bookingHarness,
  BASE_NOW,
  cancel,
  checkEventLog,
  createBooking,
  createOk,
  day,
  expectError,
  getBooking,
  operatorAction,
  operatorOk,
  sql,
} from './helpers/bookings.ts';

const TZ = 'Europe/Budapest';

function slot(date: string, startTime: string, endTime: string) {
  return { date, startTime, endTime, timezone: TZ };
}

for (const target of dbTargets()) {
  describe(`booking lifecycle [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    /** GET booking + its events, checked against every event-log rule. */
    async function verified(salon: SalonFixture, bookingId: string): Promise<{ booking: any; events: any[] }> {
      const got = await getBooking(h, salon, bookingId);
      assert.equal(got.status, 200, got.raw);
      const events = await bookingEvents(h, salon, bookingId);
      checkEventLog(events, got.body.data.booking);
      return { booking: got.body.data.booking, events };
    }

    test('accept: requested → confirmed, acceptanceMode manual, event booking.confirmed', async () => {
      const salon = await createSalon(h.app);
      const b = await createOk(h, salon, { service: salon.manualService, startTime: '10:00' });
      const accepted = await operatorOk(h, b.bookingId, 'accept');
      assert.equal(accepted.status, 'confirmed');
      assert.equal(accepted.stateVersion, 2);
      assert.equal(accepted.acceptanceMode, 'manual');
      assert.deepEqual(accepted.confirmedSlot, slot(day(2), '10:00', '11:00'));
      assert.deepEqual(accepted.requestedSlot, { date: day(2), startTime: '10:00', timezone: TZ });
      const { events } = await verified(salon, b.bookingId);
      assert.deepEqual(
        events.map((e) => e.event),
        ['booking.requested', 'booking.confirmed'],
      );
      assert.equal(events[1].booking.acceptanceMode, 'manual');
      expectError(await operatorAction(h, b.bookingId, 'accept'), 409, 'booking.invalid_transition');
      const auto = await createOk(h, salon, { startTime: '14:00' });
      expectError(await operatorAction(h, auto.bookingId, 'accept'), 409, 'booking.invalid_transition');
      expectError(await operatorAction(h, 'bkg_doesnotexist0000000', 'accept'), 404, 'booking.not_found');
    });

    test('decline: from requested and from rescheduleProposed; the time is freed; confirmedSlot null', async () => {
      const salon = await createSalon(h.app);
      const a = await createOk(h, salon, { service: salon.manualService, startTime: '10:00' });
      const declined = await operatorOk(h, a.bookingId, 'decline');
      assert.equal(declined.status, 'declined');
      assert.equal(declined.stateVersion, 2);
      assert.equal(declined.confirmedSlot, null);
      await createOk(h, salon, { service: salon.manualService, startTime: '10:00' }); // time free again

      // confirmed, then a proposal, then declined: no confirmedSlot although it was confirmed once
      const b = await createOk(h, salon, { startTime: '14:00' });
      assert.notEqual(b.confirmedSlot, null);
      await operatorOk(h, b.bookingId, 'propose', { date: day(2), startTime: '15:00' });
      const d2 = await operatorOk(h, b.bookingId, 'decline');
      assert.equal(d2.status, 'declined');
      assert.equal(d2.confirmedSlot, null);
      assert.equal(d2.stateVersion, 4);
      const { events } = await verified(salon, b.bookingId);
      assert.deepEqual(
        events.map((e) => e.event),
        ['booking.requested', 'booking.confirmed', 'booking.reschedule_proposed', 'booking.declined'],
      );
      // both the original and the proposed time are free
      await createOk(h, salon, { startTime: '14:00' });
      await createOk(h, salon, { startTime: '15:00' });

      expectError(await operatorAction(h, b.bookingId, 'decline'), 409, 'booking.invalid_transition');
      const c = await createOk(h, salon, { startTime: '16:00' });
      expectError(await operatorAction(h, c.bookingId, 'decline'), 409, 'booking.invalid_transition');
    });

    test('propose holds the new time; accept-proposal confirms it with booking.reschedule_confirmed', async () => {
      const salon = await createSalon(h.app);
      const [anna, bence] = salon.staff as [any, any];
      const b = await createOk(h, salon, { service: salon.manualService, startTime: '10:00' });
      const p = await operatorOk(h, b.bookingId, 'propose', { date: day(3), startTime: '11:00', staffId: bence.id });
      assert.equal(p.status, 'rescheduleProposed');
      assert.equal(p.stateVersion, 2);
      assert.equal(p.confirmedSlot, null);
      assert.deepEqual(p.requestedSlot, { date: day(2), startTime: '10:00', timezone: TZ });
      assert.deepEqual(p.proposedSlot, { ...slot(day(3), '11:00', '12:00'), staffId: bence.id });

      // the proposed time is held for Bence: another booking there fails, at any overlap
      expectError(
        await createBooking(h, salon, { date: day(3), startTime: '11:30', staffId: bence.id }),
        409,
        'booking.slot_no_longer_available',
      );
      expectError(
        await createBooking(h, salon, { service: salon.manualService, date: day(3), startTime: '10:30', staffId: bence.id }),
        409,
        'booking.slot_unavailable',
      );
      const clash = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: bence.id,
        date: day(3),
        startTime: '11:00',
        guest: { name: 'Walk-in', phone: '+36301111111' },
      });
      expectError(clash, 409, 'booking.slot_unavailable');

      // the guest accepts
      const c = await operatorOk(h, b.bookingId, 'accept-proposal');
      assert.equal(c.status, 'confirmed');
      assert.equal(c.stateVersion, 3);
      assert.equal(c.staffId, bence.id);
      assert.equal(c.staffName, 'Bence');
      assert.deepEqual(c.confirmedSlot, slot(day(3), '11:00', '12:00'));
      assert.equal('proposedSlot' in c, false);
      const { events } = await verified(salon, b.bookingId);
      assert.deepEqual(
        events.map((e) => e.event),
        ['booking.requested', 'booking.reschedule_proposed', 'booking.reschedule_confirmed'],
      );
      assert.equal(events[1].booking.confirmedSlot, null);
      assert.deepEqual(events[2].booking.confirmedSlot, slot(day(3), '11:00', '12:00'));
      // still held after acceptance; Anna's original time is free
      expectError(
        await createBooking(h, salon, { date: day(3), startTime: '11:00', staffId: bence.id }),
        409,
        'booking.slot_no_longer_available',
      );
      await createOk(h, salon, { date: day(2), startTime: '10:00', staffId: anna.id });

      expectError(await operatorAction(h, b.bookingId, 'accept-proposal'), 409, 'booking.invalid_transition');
    });

    test('accept-proposal after the proposed staff member stopped offering the service: their id and their name', async () => {
      const salon = await createSalon(h.app);
      const [, bence] = salon.staff as [any, any];
      const b = await createOk(h, salon, { service: salon.manualService, startTime: '10:00' });
      assert.notEqual(b.staffId, bence.id);
      await operatorOk(h, b.bookingId, 'propose', { date: day(3), startTime: '11:00', staffId: bence.id });
      // Bence keeps only the other service: the proposal still holds his time, and the guest accepts it.
      await adminOk(h.app, 'PATCH', `/staff/${bence.id}`, { serviceIds: [salon.service.id] });
      const c = await operatorOk(h, b.bookingId, 'accept-proposal');
      assert.deepEqual([c.status, c.staffId, c.staffName], ['confirmed', bence.id, 'Bence']);
      const { events } = await verified(salon, b.bookingId);
      assert.deepEqual([events[2].booking.staffId, events[2].booking.staffName], [bence.id, 'Bence']);
    });

    test('propose/reschedule into a clash → 409 booking.slot_unavailable and the booking is unchanged', async () => {
      const salon = await createSalon(h.app);
      const a = await createOk(h, salon, { startTime: '10:00' });
      const b = await createOk(h, salon, { startTime: '11:00' });
      expectError(await operatorAction(h, b.bookingId, 'propose', { date: day(2), startTime: '10:15' }), 409, 'booking.slot_unavailable');
      expectError(
        await operatorAction(h, b.bookingId, 'reschedule', { date: day(2), startTime: '09:45' }),
        409,
        'booking.slot_unavailable',
      );
      const { booking } = await verified(salon, b.bookingId);
      assert.equal(booking.stateVersion, 2);
      assert.deepEqual(booking.confirmedSlot, slot(day(2), '11:00', '11:30'));
      // moving onto its own current time, or to another staff member, is fine
      await operatorOk(h, a.bookingId, 'reschedule', { date: day(2), startTime: '10:15' });
      const moved = await operatorOk(h, b.bookingId, 'reschedule', { date: day(2), startTime: '10:15', staffId: salon.staff[1]!.id });
      assert.equal(moved.staffId, salon.staff[1]!.id);
      const outsider = await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Dóra', serviceIds: [] });
      expectError(
        await operatorAction(h, b.bookingId, 'reschedule', { date: day(2), startTime: '12:00', staffId: outsider.id }),
        404,
        'catalog.staff_not_found',
      );
      expectError(await operatorAction(h, b.bookingId, 'reschedule'), 400, 'request.validation_failed');
      expectError(await operatorAction(h, b.bookingId, 'propose', { date: day(2), startTime: '25:00' }), 400, 'request.validation_failed');
      const requested = await createOk(h, salon, { service: salon.manualService, startTime: '14:00' });
      expectError(
        await operatorAction(h, requested.bookingId, 'reschedule', { date: day(2), startTime: '15:00' }),
        409,
        'booking.invalid_transition',
      );
    });

    test('reschedule twice: two reschedule_confirmed events, sequences N and N+1, new deliveryIds and transition ids', async () => {
      const salon = await createSalon(h.app);
      const b = await createOk(h, salon, { startTime: '10:00' });
      const r1 = await operatorOk(h, b.bookingId, 'reschedule', { date: day(2), startTime: '12:00' });
      const r2 = await operatorOk(h, b.bookingId, 'reschedule', { date: day(4), startTime: '09:00' });
      assert.equal(r1.status, 'confirmed');
      assert.equal(r1.stateVersion, 3);
      assert.deepEqual(r1.confirmedSlot, slot(day(2), '12:00', '12:30'));
      assert.equal(r2.stateVersion, 4);
      assert.deepEqual(r2.confirmedSlot, slot(day(4), '09:00', '09:30'));
      assert.equal(r2.acceptanceMode, 'automatic');
      const { events } = await verified(salon, b.bookingId);
      const [e3, e4] = [events[2], events[3]];
      assert.equal(e3.event, 'booking.reschedule_confirmed');
      assert.equal(e4.event, 'booking.reschedule_confirmed');
      assert.deepEqual([e3.transition.sequence, e4.transition.sequence], [3, 4]);
      assert.deepEqual([e3.transition.from, e3.transition.to], ['confirmed', 'confirmed']);
      assert.notEqual(e3.deliveryId, e4.deliveryId);
      assert.notEqual(e3.transition.id, e4.transition.id);
      assert.deepEqual(e3.booking.confirmedSlot, slot(day(2), '12:00', '12:30'));
      assert.deepEqual(e4.booking.confirmedSlot, slot(day(4), '09:00', '09:30'));
      // the old times are free again
      await createOk(h, salon, { startTime: '10:00' });
      await createOk(h, salon, { startTime: '12:00' });
    });

    test('complete and no-show only once the start has passed', async () => {
      const salon = await createSalon(h.app);
      const a = await createOk(h, salon, { date: day(1), startTime: '10:00' });
      const b = await createOk(h, salon, { date: day(1), startTime: '11:00' });
      const r = await createOk(h, salon, { service: salon.manualService, date: day(1), startTime: '12:00' });
      expectError(await operatorAction(h, a.bookingId, 'complete'), 409, 'booking.invalid_transition');
      expectError(await operatorAction(h, b.bookingId, 'no-show'), 409, 'booking.invalid_transition');
      // 10:00 local on day(1) is 08:00Z
      h.clock.now = new Date(`${day(1)}T08:00:00.000Z`);
      try {
        const done = await operatorOk(h, a.bookingId, 'complete');
        assert.equal(done.status, 'completed');
        assert.deepEqual(done.confirmedSlot, slot(day(1), '10:00', '10:30'));
        expectError(await operatorAction(h, b.bookingId, 'no-show'), 409, 'booking.invalid_transition');
        h.clock.now = new Date(`${day(1)}T09:05:00.000Z`);
        const ns = await operatorOk(h, b.bookingId, 'no-show');
        assert.equal(ns.status, 'noShow');
        assert.equal(ns.stateVersion, 3);
        assert.deepEqual(ns.confirmedSlot, slot(day(1), '11:00', '11:30'));
        h.clock.now = new Date(`${day(1)}T12:00:00.000Z`);
        // a request that was never accepted cannot be completed
        expectError(await operatorAction(h, r.bookingId, 'complete'), 409, 'booking.invalid_transition');
        // terminal states stay put
        for (const id of [a.bookingId, b.bookingId]) {
          for (const action of ['complete', 'no-show', 'accept', 'decline', 'accept-proposal'] as const) {
            expectError(await operatorAction(h, id, action), 409, 'booking.invalid_transition');
          }
          expectError(await operatorAction(h, id, 'reschedule', { date: day(5), startTime: '10:00' }), 409, 'booking.invalid_transition');
          expectError(await cancel(h, salon, id), 409, 'booking.invalid_transition');
        }
        const da = await verified(salon, a.bookingId);
        assert.deepEqual(
          da.events.map((e) => e.event),
          ['booking.requested', 'booking.confirmed', 'booking.completed'],
        );
        const db = await verified(salon, b.bookingId);
        assert.deepEqual(
          db.events.map((e) => e.event),
          ['booking.requested', 'booking.confirmed', 'booking.no_show'],
        );
      } finally {
        h.clock.now = new Date(BASE_NOW);
      }
    });

    test('manual booking by the business: confirmed at once, requestedSlot null, may lie in the past, may not clash', async () => {
      const salon = await createSalon(h.app);
      const [anna] = salon.staff as [any];
      const body = {
        locationSlug: salon.location.slug,
        serviceId: salon.manualService.id,
        staffId: anna.id,
        date: day(-3),
        startTime: '07:30', // before opening hours, in the past: the business knows best
        guest: { name: 'Telefonos Vendég', phone: '06 20 555 1234', email: 'TEL@EXAMPLE.COM' },
        note: 'telefonon',
      };
      const r = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, body);
      assert.equal(r.status, 200, r.raw);
      const b = r.body.data.booking;
      assert.equal(b.status, 'confirmed');
      assert.equal(b.stateVersion, 1);
      assert.equal(b.acceptanceMode, 'manual');
      assert.deepEqual(b.requestedSlot, { date: null, startTime: null, timezone: TZ });
      assert.deepEqual(b.confirmedSlot, slot(day(-3), '07:30', '08:30'));
      assert.equal(b.note, 'telefonon');
      // the business sees its guest's contact (business-side.md); the public read below does not
      assert.deepEqual(b.guest, { name: 'Telefonos Vendég', phone: '+36205551234', email: 'tel@example.com' });
      const [row] = await sql(h, 'SELECT guest_phone, guest_email, api_source_key_id FROM bookings WHERE id = $1', [b.bookingId]);
      assert.deepEqual(row, { guest_phone: '+36205551234', guest_email: 'tel@example.com', api_source_key_id: null });
      const { events } = await verified(salon, b.bookingId);
      assert.deepEqual(
        events.map((e) => [e.event, e.transition.sequence, e.transition.from, e.transition.to]),
        [['booking.confirmed', 1, null, 'confirmed']],
      );
      // visible to the public API and cancellable there
      const list = await api(h.app, salon.key.secret, 'GET', `/bookings?salonSlug=${salon.business.slug}`);
      assert.deepEqual(
        list.body.data.bookings.map((x: any) => x.bookingId),
        [b.bookingId],
      );

      // clashes are refused, the past included
      expectError(
        await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, { ...body, startTime: '08:00' }),
        409,
        'booking.slot_unavailable',
      );
      const online = await createOk(h, salon, { startTime: '10:00' });
      expectError(
        await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
          ...body,
          date: day(2),
          startTime: '09:45',
          serviceId: salon.service.id,
        }),
        409,
        'booking.slot_unavailable',
      );
      const other = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
        ...body,
        date: day(2),
        startTime: '10:00',
        staffId: salon.staff[1]!.id,
      });
      assert.equal(other.status, 200, other.raw);
      assert.ok(online);

      const outsider = await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Dóra', serviceIds: [] });
      expectError(
        await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, { ...body, staffId: outsider.id, date: day(6) }),
        404,
        'catalog.staff_not_found',
      );
      expectError(
        await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
          ...body,
          guest: { name: 'X', phone: 'abc' },
          date: day(6),
        }),
        400,
        'request.validation_failed',
      );
      const c = await cancel(h, salon, b.bookingId);
      assert.equal(c.status, 200, c.raw);
      assert.equal(c.body.data.booking.status, 'cancelled');
      assert.equal(c.body.data.booking.stateVersion, 2);
    });

    test('cancel: requested, confirmed and rescheduleProposed only; a second cancel → 409 booking.invalid_transition', async () => {
      const salon = await createSalon(h.app);
      const other = await createSalon(h.app);
      const req = await createOk(h, salon, { service: salon.manualService, startTime: '09:00' });
      const conf = await createOk(h, salon, { startTime: '11:00' });
      const prop = await createOk(h, salon, { startTime: '12:00' });
      await operatorOk(h, prop.bookingId, 'propose', { date: day(2), startTime: '13:00' });
      const decl = await createOk(h, salon, { service: salon.manualService, startTime: '14:00' });
      await operatorOk(h, decl.bookingId, 'decline');

      for (const [b, from, version] of [
        [req, 'requested', 2],
        [conf, 'confirmed', 3],
        [prop, 'rescheduleProposed', 4],
      ] as const) {
        const r = await cancel(h, salon, b.bookingId);
        assert.equal(r.status, 200, r.raw);
        const c = r.body.data.booking;
        assert.equal(c.status, 'cancelled');
        assert.equal(c.stateVersion, version);
        assert.equal(c.confirmedSlot, null);
        assert.equal('proposedSlot' in c, false);
        const { events } = await verified(salon, b.bookingId);
        const last = events[events.length - 1];
        assert.equal(last.event, 'booking.cancelled');
        assert.deepEqual([last.transition.from, last.transition.to], [from, 'cancelled']);
        const again = await cancel(h, salon, b.bookingId);
        expectError(again, 409, 'booking.invalid_transition');
        assert.equal(again.body.error.retryable, false);
      }
      expectError(await cancel(h, salon, decl.bookingId), 409, 'booking.invalid_transition');
      // all four times are free again (13:00 was the held proposal)
      for (const t of ['09:00', '11:00', '12:00', '13:00', '14:00']) await createOk(h, salon, { startTime: t });
      // another business's booking, or none at all
      expectError(await cancel(h, other, conf.bookingId), 404, 'booking.not_found');
      expectError(await cancel(h, salon, 'bkg_doesnotexist0000000'), 404, 'booking.not_found');
      expectError(
        await api(h.app, salon.key.secret, 'POST', `/bookings/${conf.bookingId}/cancel?salonSlug=${other.business.slug}`),
        403,
        'auth.scope_mismatch',
      );
    });

    test('confirmedSlot rules 1-4 through a long history', async () => {
      const salon = await createSalon(h.app);
      const b = await createOk(h, salon, { service: salon.manualService, startTime: '10:00' });
      const seen: Array<[string, unknown]> = [[b.status, b.confirmedSlot]];
      const step = async (action: Parameters<typeof operatorOk>[2], time?: { date: string; startTime: string }) => {
        const x = await operatorOk(h, b.bookingId, action, time);
        seen.push([x.status, x.confirmedSlot]);
      };
      await step('accept');
      await step('propose', { date: day(2), startTime: '13:00' });
      await step('accept-proposal');
      await step('reschedule', { date: day(2), startTime: '15:00' });
      await step('propose', { date: day(2), startTime: '09:00' });
      const c = await cancel(h, salon, b.bookingId);
      seen.push([c.body.data.booking.status, c.body.data.booking.confirmedSlot]);
      assert.deepEqual(seen, [
        ['requested', null],
        ['confirmed', slot(day(2), '10:00', '11:00')],
        ['rescheduleProposed', null],
        ['confirmed', slot(day(2), '13:00', '14:00')],
        ['confirmed', slot(day(2), '15:00', '16:00')],
        ['rescheduleProposed', null],
        ['cancelled', null],
      ]);
      const { events } = await verified(salon, b.bookingId);
      assert.deepEqual(
        events.map((e) => [e.event, e.booking.confirmedSlot === null]),
        [
          ['booking.requested', true],
          ['booking.confirmed', false],
          ['booking.reschedule_proposed', true],
          ['booking.reschedule_confirmed', false],
          ['booking.reschedule_confirmed', false],
          ['booking.reschedule_proposed', true],
          ['booking.cancelled', true],
        ],
      );
      // reading the log again gives the same bytes: payloads are stored, not rebuilt
      const r1 = await api(h.app, salon.key.secret, 'GET', `/bookings/${b.bookingId}/events`);
      const r2 = await api(h.app, salon.key.secret, 'GET', `/bookings/${b.bookingId}/events`);
      assert.equal(JSON.stringify(r1.body.data), JSON.stringify(r2.body.data));
    });

    test('each event is also queued for the webhook when one is configured, in the same transaction', async () => {
      const salon = await createSalon(h.app);
      await sql(h, "INSERT INTO webhook_configs (business_id, url, secret_ciphertext) VALUES ($1, 'https://hooks.example.com/x', 'x')", [
        salon.business.id,
      ]);
      const b = await createOk(h, salon, { startTime: '10:00' });
      await operatorOk(h, b.bookingId, 'reschedule', { date: day(2), startTime: '11:00' });
      await cancel(h, salon, b.bookingId);
      expectError(
        await createBooking(h, salon, { startTime: '11:00', staffId: salon.staff[1]!.id, expectedPricingVersion: 'x' }),
        409,
        'booking.service_pricing_changed',
      );
      const events = await bookingEvents(h, salon, b.bookingId);
      const rows = await sql(
        h,
        'SELECT delivery_id, sequence, event, status FROM webhook_deliveries WHERE business_id = $1 ORDER BY sequence',
        [salon.business.id],
      );
      assert.deepEqual(
        rows,
        events.map((e) => ({ delivery_id: e.deliveryId, sequence: e.transition.sequence, event: e.event, status: 'pending' })),
      );
    });
  });
}

for (const target of dbTargets()) {
  describe(`calls that take no body refuse one with anything in it [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    test('cancel, an operator action and rotate-secret: 400 on a body, none / null / {} accepted', async () => {
      const salon = await createSalon(h.app);
      const b = await createOk(h, salon, { startTime: '10:00' });
      const cancelWith = (payload: unknown) => api(h.app, salon.key.secret, 'POST', `/bookings/${b.bookingId}/cancel`, payload);
      for (const payload of [{ reason: 'sick' }, [], 5, true]) {
        const r = await cancelWith(payload);
        expectError(r, 400, 'request.validation_failed');
        assert.equal(r.body.error.details.issues[0].path, 'body');
      }
      assert.equal((await getBooking(h, salon, b.bookingId)).body.data.booking.status, 'confirmed');
      assert.equal((await cancelWith({})).status, 200);

      const m = await createOk(h, salon, { service: salon.manualService, startTime: '12:00' });
      expectError(await admin(h.app, 'POST', `/bookings/${m.bookingId}/accept`, { note: 'ok' }), 400, 'request.validation_failed');
      assert.equal((await admin(h.app, 'POST', `/bookings/${m.bookingId}/accept`, null)).status, 200);

      await api(h.app, salon.key.secret, 'PUT', `/webhooks/config?salonSlug=${salon.business.slug}`, {
        url: 'https://hooks.example.com/x',
      });
      const rotate = (payload: unknown) =>
        api(h.app, salon.key.secret, 'POST', `/webhooks/config/rotate-secret?salonSlug=${salon.business.slug}`, payload);
      expectError(await rotate({ secret: 'mine' }), 400, 'request.validation_failed');
      assert.equal((await rotate(undefined)).status, 200);
    });
  });
}
