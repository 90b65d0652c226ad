/**
 * Visits (salon-scheduling.md "Visits") through the API on every database: a search with
 * `serviceIds` offers a time only when every part fits back to back (each part's buffers, staff,
 * processing and resources); a create with `visit` books every part in one transaction, or none;
 * a hold takes `serviceIds` and a create uses it; the operator cancels the whole visit. Races
 * between instances are in visits-race.test.ts, the engine against a brute force in
 * availability-visit.property.test.ts.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { api, createSalon, createService, createStaff, type SalonFixture, type ServiceFixture } from './helpers/fixtures.ts';
import { bookingEvents, bookingHarness, CONSENT, createOk, day, expectError, SECRET_PHONE, sql } from './helpers/bookings.ts';

for (const target of dbTargets()) {
  describe(`visits (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    interface VisitSalon {
      salon: SalonFixture;
      cut: ServiceFixture;
      colour: ServiceFixture;
      /** Anna cuts only, Bence colours only, Cili does both */
      anna: string;
      bence: string;
      cili: string;
      basin: string;
    }

    /** A cut (30 min, 5 min buffer after) and a colour (15 work, 30 processing, 15 work, 10 min buffer before) needing the one basin. */
    async function visitSalon(): Promise<VisitSalon> {
      const salon = await createSalon(h.app);
      const { slug } = salon.business;
      const basin = (
        await adminOk(h.app, 'POST', `/businesses/${slug}/resources`, {
          locationSlug: salon.location.slug,
          name: 'Wash basin',
          quantity: 1,
        })
      ).resource.id;
      const cut = await createService(h.app, slug, salon.location.slug, { name: 'Cut', bufferAfterMinutes: 5 });
      const colour = await createService(h.app, slug, salon.location.slug, {
        name: 'Colour',
        durationMinutes: 60,
        bufferBeforeMinutes: 10,
        resourceIds: [basin],
        segments: [
          { kind: 'work', minutes: 15 },
          { kind: 'processing', minutes: 30 },
          { kind: 'work', minutes: 15 },
        ],
      });
      // the fixture's two staff members do neither, so only these three are asked
      for (const s of salon.staff) await adminOk(h.app, 'PATCH', `/staff/${s.id}`, { serviceIds: [salon.service.id] });
      const anna = await createStaff(h.app, slug, salon.location.slug, { name: 'Anna V', serviceIds: [cut.id] });
      const bence = await createStaff(h.app, slug, salon.location.slug, { name: 'Bence V', serviceIds: [colour.id] });
      const cili = await createStaff(h.app, slug, salon.location.slug, { name: 'Cili V', serviceIds: [cut.id, colour.id] });
      return { salon, cut, colour, anna: anna.id, bence: bence.id, cili: cili.id, basin };
    }

    function search(v: VisitSalon, extra: Record<string, unknown> = {}) {
      return api(h.app, v.salon.key.secret, 'POST', '/availability/search', {
        salonSlug: v.salon.business.slug,
        locationSlug: v.salon.location.slug,
        serviceIds: [v.cut.id, v.colour.id],
        dateRange: { from: day(2), to: day(2) },
        ...extra,
      });
    }

    function visitBody(v: VisitSalon, startTime: string, parts?: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) {
      return {
        salonSlug: v.salon.business.slug,
        locationSlug: v.salon.location.slug,
        visit: parts ?? [
          { serviceId: v.cut.id, expectedPricingVersion: v.cut.pricingVersion },
          { serviceId: v.colour.id, expectedPricingVersion: v.colour.pricingVersion },
        ],
        slot: { date: day(2), startTime },
        guest: { name: 'Kiss Éva', phone: SECRET_PHONE },
        consent: CONSENT,
        ...extra,
      };
    }

    const createVisit = (v: VisitSalon, body: Record<string, unknown>) => api(h.app, v.salon.key.secret, 'POST', '/bookings', body);

    test('search: each slot is the whole visit, parts back to back with both buffers, preferring one staff member for all', async () => {
      const v = await visitSalon();
      const r = await search(v);
      assert.equal(r.status, 200, r.raw);
      const at10 = r.body.data.slots.filter((s: any) => s.startTime === '10:00');
      // the first part by Anna or Cili; Cili can do both, Anna hands over to Bence or Cili
      assert.deepEqual(at10.map((s: any) => s.staffId).sort(), [v.anna, v.cili].sort());
      const cili = at10.find((s: any) => s.staffId === v.cili);
      // cut 10:00-10:30, its 5 min buffer after, the colour's 10 min before: 10:45-11:45
      assert.deepEqual(cili, {
        date: day(2),
        startTime: '10:00',
        endTime: '11:45',
        serviceId: v.cut.id,
        staffId: v.cili,
        visit: [
          { serviceId: v.cut.id, staffId: v.cili, startTime: '10:00', endTime: '10:30' },
          { serviceId: v.colour.id, staffId: v.cili, startTime: '10:45', endTime: '11:45' },
        ],
      });
      const anna = at10.find((s: any) => s.staffId === v.anna);
      assert.equal(anna.visit[1].staffId, [v.bence, v.cili].sort()[0], 'Anna does no colour: the first free colourist by id');
      // the colour must end by 17:00: the last start is 16:00 - 45 min = 15:15
      const starts = r.body.data.slots.map((s: any) => s.startTime);
      assert.ok(starts.includes('15:15') && !starts.includes('15:30'), starts.join(' '));

      // with staffId every part is with them: only Cili does both
      const one = await search(v, { staffId: v.cili });
      assert.equal(one.status, 200, one.raw);
      assert.ok(one.body.data.slots.every((s: any) => s.visit.every((p: any) => p.staffId === v.cili)));
      expectError(await search(v, { staffId: v.anna }), 404, 'catalog.staff_not_found');
    });

    test('stylist variants: a length variant keeps that staff member out of the part, a price variant applies', async () => {
      const v = await visitSalon();
      // Cili takes 45 minutes for a cut; Anna's cut costs more but takes the usual 30
      await adminOk(h.app, 'PATCH', `/services/${v.cut.id}`, {
        staffVariants: [
          { staffId: v.cili, durationMinutes: 45 },
          { staffId: v.anna, price: { amount: 9900, currency: 'HUF' } },
        ],
      });
      const r = await search(v);
      assert.equal(r.status, 200, r.raw);
      const at10 = r.body.data.slots.filter((s: any) => s.startTime === '10:00');
      assert.deepEqual(
        at10.map((s: any) => s.staffId),
        [v.anna],
        'Cili is not offered for the cut of a visit while her cut is longer',
      );
      assert.ok(r.body.data.slots.every((s: any) => s.visit[0].staffId !== v.cili));
      // asked for by name, she does both parts or none: no visit with her at all
      const hers = await search(v, { staffId: v.cili });
      assert.equal(hers.status, 200, hers.raw);
      assert.deepEqual(hers.body.data.slots, []);
      const created = await createVisit(v, visitBody(v, '10:00', [{ serviceId: v.cut.id, staffId: v.anna }, { serviceId: v.colour.id }]));
      assert.equal(created.status, 201, created.raw);
      const [cut] = created.body.data.visit.bookings;
      const booked = (await adminOk(h.app, 'GET', `/bookings/${cut.bookingId}`)).booking;
      assert.deepEqual(booked.price, { amount: 9900, currency: 'HUF' }, 'Anna’s price');
    });

    test('the front desk books a visit: every part confirmed, back to back; a clash in a later part books nothing', async () => {
      const v = await visitSalon();
      const { slug } = v.salon.business;
      const body = (startTime: string, extra: Record<string, unknown> = {}) => ({
        locationSlug: v.salon.location.slug,
        visit: [
          { serviceId: v.cut.id, staffId: v.anna },
          { serviceId: v.colour.id, staffId: v.cili },
        ],
        date: day(3),
        startTime,
        guest: { name: 'Desk Dora', phone: '+36301234567' },
        ...extra,
      });
      const check = await adminOk(h.app, 'POST', `/businesses/${slug}/bookings/check`, { ...body('16:30'), guest: undefined });
      // the cut 16:30-17:00, the colour from 17:15: past Cili's hours
      assert.deepEqual(
        check.warnings.map((w: { code: string }) => w.code),
        ['outside_working_hours'],
      );
      const made = await adminOk(h.app, 'POST', `/businesses/${slug}/bookings`, body('10:00'));
      assert.deepEqual(made.warnings, []);
      assert.equal(made.visit.bookings.length, 2);
      const [cut, colour] = made.visit.bookings;
      assert.equal(made.booking.bookingId, cut.bookingId);
      assert.deepEqual(
        [cut.status, cut.staffId, cut.confirmedSlot.startTime, cut.confirmedSlot.endTime],
        ['confirmed', v.anna, '10:00', '10:30'],
      );
      // the cut's 5 minutes after and the colour's 10 before
      assert.deepEqual(
        [colour.status, colour.staffId, colour.confirmedSlot.startTime, colour.confirmedSlot.endTime],
        ['confirmed', v.cili, '10:45', '11:45'],
      );
      assert.deepEqual(
        await sql(h, 'SELECT count(DISTINCT visit_id)::int AS n FROM bookings WHERE id = ANY($1)', [[cut.bookingId, colour.bookingId]]),
        [{ n: 1 }],
      );

      // Cili is colouring 11:00-12:00 for someone else: the later part clashes, nothing is booked
      await adminOk(h.app, 'POST', `/businesses/${slug}/bookings`, {
        locationSlug: v.salon.location.slug,
        serviceId: v.cut.id,
        staffId: v.cili,
        date: day(3),
        startTime: '14:00',
        guest: { name: 'Other', phone: '+36301234567' },
      });
      const before = await sql(h, 'SELECT count(*)::int AS n FROM bookings', []);
      const clash = await admin(h.app, 'POST', `/businesses/${slug}/bookings`, body('13:15'));
      assert.equal(clash.status, 409, clash.raw);
      assert.equal(clash.body.error.code, 'booking.slot_unavailable');
      assert.deepEqual(await sql(h, 'SELECT count(*)::int AS n FROM bookings', []), before, 'no part was kept');

      const both = await admin(h.app, 'POST', `/businesses/${slug}/bookings`, { ...body('09:00'), serviceId: v.cut.id, staffId: v.anna });
      assert.equal(both.status, 400, both.raw);
      assert.equal(both.body.error.code, 'request.validation_failed');
    });

    test('explain with serviceIds: bookable is what the visit search offers, a later part in the way is named', async () => {
      const v = await visitSalon();
      const explain = async (startTime: string) => {
        const r = await api(h.app, v.salon.key.secret, 'POST', '/availability/explain', {
          salonSlug: v.salon.business.slug,
          locationSlug: v.salon.location.slug,
          serviceIds: [v.cut.id, v.colour.id],
          date: day(2),
          startTime,
        });
        assert.equal(r.status, 200, r.raw);
        return r.body.data.explanation;
      };
      // someone's colour with Bence at 10:45 takes the one basin
      await adminOk(h.app, 'POST', `/businesses/${v.salon.business.slug}/bookings`, {
        locationSlug: v.salon.location.slug,
        serviceId: v.colour.id,
        staffId: v.bence,
        date: day(2),
        startTime: '10:45',
        guest: { name: 'Basin Bea', phone: '+36301234567' },
      });
      const offered = new Set(
        ((await search(v)).body.data.slots as Array<{ startTime: string; staffId: string }>).map((s) => `${s.startTime} ${s.staffId}`),
      );
      for (let minute = 9 * 60; minute < 17 * 60; minute += 15) {
        const time = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
        const e = await explain(time);
        for (const s of e.staff) {
          assert.equal(s.bookable, offered.has(`${time} ${s.staffId}`), `${time} ${s.staffName}: bookable as the search`);
          assert.equal(s.reasons.length === 0, s.bookable, `${time} ${s.staffName}: a reason exactly when not bookable`);
        }
      }
      // 10:00: the cut is free, but the colour at 10:45 has no basin
      const at10 = await explain('10:00');
      const anna = at10.staff.find((s: { staffId: string }) => s.staffId === v.anna);
      assert.equal(anna.bookable, false);
      assert.ok(anna.reasons.includes('resource_unavailable'), anna.reasons.join());
      assert.deepEqual(anna.resources, [{ resourceId: v.basin, name: 'Wash basin' }]);
      expectError(
        await api(h.app, v.salon.key.secret, 'POST', '/availability/explain', {
          salonSlug: v.salon.business.slug,
          locationSlug: v.salon.location.slug,
          serviceId: v.cut.id,
          serviceIds: [v.cut.id, v.colour.id],
          date: day(2),
          startTime: '10:00',
        }),
        400,
        'request.validation_failed',
      );
    });

    test('search: exactly one of serviceId and serviceIds, 2 to 4 of them; a group session is no part', async () => {
      const v = await visitSalon();
      expectError(await search(v, { serviceId: v.cut.id }), 400, 'request.validation_failed');
      expectError(await search(v, { serviceIds: [v.cut.id] }), 400, 'request.validation_failed');
      expectError(await search(v, { serviceIds: [v.cut.id, v.cut.id, v.cut.id, v.cut.id, v.cut.id] }), 400, 'request.validation_failed');
      const r = await api(h.app, v.salon.key.secret, 'POST', '/availability/search', {
        salonSlug: v.salon.business.slug,
        locationSlug: v.salon.location.slug,
        dateRange: { from: day(2), to: day(2) },
      });
      expectError(r, 400, 'request.validation_failed');
      expectError(await search(v, { serviceIds: [v.cut.id, 'svc_nope'] }), 404, 'catalog.service_not_found');
    });

    test('create: one booking per part with visitId, data.visit lists them, each part has its own events', async () => {
      const v = await visitSalon();
      const r = await createVisit(v, visitBody(v, '10:00'));
      assert.equal(r.status, 201, r.raw);
      const { booking, visit } = r.body.data;
      assert.match(visit.visitId, /^vst_/);
      assert.equal(visit.bookings.length, 2);
      assert.deepEqual(booking, visit.bookings[0]);
      assert.deepEqual(
        visit.bookings.map((b: any) => [b.serviceId, b.staffId, b.confirmedSlot.startTime, b.confirmedSlot.endTime, b.visitId]),
        [
          [v.cut.id, v.cili, '10:00', '10:30', visit.visitId],
          [v.colour.id, v.cili, '10:45', '11:45', visit.visitId],
        ],
        'one staff member for all parts is preferred',
      );
      for (const part of visit.bookings) {
        const read = await api(h.app, v.salon.key.secret, 'GET', `/bookings/${part.bookingId}`);
        assert.equal(read.body.data.booking.visitId, visit.visitId);
        const events = await bookingEvents(h, v.salon, part.bookingId);
        assert.deepEqual(
          events.map((e: any) => e.event),
          ['booking.requested', 'booking.confirmed'],
        );
        assert.equal(events[0].booking.visitId, visit.visitId);
      }
      // a booking on its own has no visitId
      const single = await createOk(h, v.salon, { staffId: v.salon.staff[0]!.id, startTime: '12:00' });
      assert.equal('visitId' in single, false);
      // the whole visit is taken: Anna may still cut at 10:00 but no colourist is left with the basin
      const again = await search(v);
      assert.equal(
        again.body.data.slots.filter((s: any) => s.startTime === '10:00').length,
        0,
        'the basin is the colour part\u2019s until 11:45',
      );
    });

    test('create: a replay with the same Idempotency-Key answers the same visit and books nothing more', async () => {
      const v = await visitSalon();
      const key = { 'idempotency-key': randomUUID() };
      const first = await api(h.app, v.salon.key.secret, 'POST', '/bookings', visitBody(v, '15:00'), key);
      assert.equal(first.status, 201, first.raw);
      const again = await api(h.app, v.salon.key.secret, 'POST', '/bookings', visitBody(v, '15:00'), key);
      assert.equal(again.status, 201, again.raw);
      assert.equal(again.body.meta.idempotent, true);
      assert.deepEqual(again.body.data, first.body.data);
      const [row] = await sql(h, 'SELECT count(*)::int AS n FROM bookings WHERE business_id = $1', [v.salon.business.id]);
      assert.equal(row.n, 2);
      const sub = await api(h.app, v.salon.key.secret, 'GET', `/subscription?salonSlug=${v.salon.business.slug}`);
      assert.equal(sub.body.data.subscription.bookingsThisMonth, 2, 'each part counts once against the quota, the replay not at all');
    });

    test('create: staff per part as asked, a part with another staff member; a part that does not fit refuses the whole visit', async () => {
      const v = await visitSalon();
      const r = await createVisit(
        v,
        visitBody(v, '09:00', [
          { serviceId: v.cut.id, staffId: v.anna },
          { serviceId: v.colour.id, staffId: v.bence },
        ]),
      );
      assert.equal(r.status, 201, r.raw);
      assert.deepEqual(
        r.body.data.visit.bookings.map((b: any) => b.staffId),
        [v.anna, v.bence],
      );
      // the basin is taken 09:45-10:45; Cili's visit at 09:30 would need it 10:15-11:15: all or none
      const before = await sql(h, 'SELECT count(*)::int AS n FROM bookings WHERE business_id = $1', [v.salon.business.id]);
      const refused = await createVisit(
        v,
        visitBody(v, '09:30', [
          { serviceId: v.cut.id, staffId: v.cili },
          { serviceId: v.colour.id, staffId: v.cili },
        ]),
      );
      expectError(refused, 409, 'booking.slot_no_longer_available');
      const after = await sql(h, 'SELECT count(*)::int AS n FROM bookings WHERE business_id = $1', [v.salon.business.id]);
      assert.deepEqual(after, before, 'not even the cut, which was free, was booked');
      // the cut alone at 09:30 with Cili is free
      await createOk(h, v.salon, { service: v.cut, staffId: v.cili, startTime: '09:30' });
    });

    test('create: the body rules of a visit', async () => {
      const v = await visitSalon();
      expectError(await createVisit(v, visitBody(v, '10:00', undefined, { serviceId: v.cut.id })), 400, 'request.validation_failed');
      expectError(await createVisit(v, visitBody(v, '10:00', undefined, { staffId: v.cili })), 400, 'request.validation_failed');
      expectError(await createVisit(v, visitBody(v, '10:00', [{ serviceId: v.cut.id }])), 400, 'request.validation_failed');
      const { visit: _visit, ...noService } = visitBody(v, '10:00');
      expectError(await createVisit(v, noService), 400, 'request.validation_failed');
      expectError(
        await createVisit(v, visitBody(v, '10:00', [{ serviceId: v.cut.id, expectedPricingVersion: 'old' }, { serviceId: v.colour.id }])),
        409,
        'booking.service_pricing_changed',
      );
      expectError(
        await createVisit(v, visitBody(v, '10:00', [{ serviceId: v.cut.id, staffId: v.bence }, { serviceId: v.colour.id }])),
        404,
        'catalog.staff_not_found',
      );
      // 10:07 is off the grid: not offered, so not booked
      expectError(await createVisit(v, visitBody(v, '10:07')), 409, 'booking.slot_no_longer_available');
      const [row] = await sql(h, 'SELECT count(*)::int AS n FROM visits WHERE business_id = $1', [v.salon.business.id]);
      assert.equal(row.n, 0, 'no visit row was left behind');
    });

    test('hold: serviceIds holds every part; the time is no longer offered; a create with it books the parts it held', async () => {
      const v = await visitSalon();
      const hold = await api(h.app, v.salon.key.secret, 'POST', '/holds', {
        salonSlug: v.salon.business.slug,
        locationSlug: v.salon.location.slug,
        serviceIds: [v.cut.id, v.colour.id],
        slot: { date: day(2), startTime: '11:00' },
      });
      assert.equal(hold.status, 201, hold.raw);
      const held = hold.body.data.hold;
      assert.deepEqual(held.serviceIds, [v.cut.id, v.colour.id]);
      assert.deepEqual(
        held.visit.map((p: any) => [p.serviceId, p.staffId, p.startTime, p.endTime]),
        [
          [v.cut.id, v.cili, '11:00', '11:30'],
          [v.colour.id, v.cili, '11:45', '12:45'],
        ],
      );
      const r = await search(v);
      assert.equal(r.body.data.slots.filter((s: any) => s.startTime === '11:00').length, 0, 'the basin is held');
      // a plain create cannot use a visit's hold
      const plain = await api(h.app, v.salon.key.secret, 'POST', '/bookings', {
        ...visitBody(v, '11:00'),
        visit: undefined,
        serviceId: v.cut.id,
        holdId: held.holdId,
      });
      expectError(plain, 409, 'booking.hold_mismatch');
      const wrong = await createVisit(
        v,
        visitBody(v, '11:00', [{ serviceId: v.colour.id }, { serviceId: v.cut.id }], { holdId: held.holdId }),
      );
      expectError(wrong, 409, 'booking.hold_mismatch');
      const made = await createVisit(v, visitBody(v, '11:00', undefined, { holdId: held.holdId }));
      assert.equal(made.status, 201, made.raw);
      assert.deepEqual(
        made.body.data.visit.bookings.map((b: any) => [b.staffId, b.confirmedSlot.startTime]),
        [
          [v.cili, '11:00'],
          [v.cili, '11:45'],
        ],
      );
      const used = await sql(h, 'SELECT status FROM holds WHERE id = $1 OR visit_hold_id = $1', [held.holdId]);
      assert.deepEqual(
        used.map((x: any) => x.status),
        ['used', 'used'],
      );
      expectError(await createVisit(v, visitBody(v, '11:00', undefined, { holdId: held.holdId })), 409, 'booking.hold_expired');
    });

    test('hold: releasing a visit hold frees every part', async () => {
      const v = await visitSalon();
      const hold = await api(h.app, v.salon.key.secret, 'POST', '/holds', {
        salonSlug: v.salon.business.slug,
        locationSlug: v.salon.location.slug,
        serviceIds: [v.cut.id, v.colour.id],
        staffId: v.cili,
        slot: { date: day(2), startTime: '13:00' },
      });
      assert.equal(hold.status, 201, hold.raw);
      const released = await api(h.app, v.salon.key.secret, 'DELETE', `/holds/${hold.body.data.hold.holdId}`);
      assert.equal(released.status, 200, released.raw);
      assert.equal(released.body.data.hold.status, 'released');
      assert.equal(released.body.data.hold.visit.length, 2, 'the answer names the parts released with it');
      const rows = await sql(h, 'SELECT status FROM holds WHERE id = $1 OR visit_hold_id = $1', [hold.body.data.hold.holdId]);
      assert.deepEqual(
        rows.map((x: any) => x.status),
        ['released', 'released'],
      );
      const r = await search(v, { staffId: v.cili });
      assert.ok(r.body.data.slots.some((s: any) => s.startTime === '13:00'));
    });

    test('operator: cancelling the visit cancels every part still occupying time; again is 409; unknown is 404', async () => {
      const v = await visitSalon();
      const r = await createVisit(v, visitBody(v, '14:00'));
      assert.equal(r.status, 201, r.raw);
      const { visitId, bookings } = r.body.data.visit;
      const done = await admin(h.app, 'POST', `/visits/${visitId}/cancel`, { reason: 'guest phoned' });
      assert.equal(done.status, 200, done.raw);
      assert.equal(done.body.data.visit.visitId, visitId);
      assert.deepEqual(
        done.body.data.visit.bookings.map((b: any) => [b.bookingId, b.status, b.reason]),
        bookings.map((b: any) => [b.bookingId, 'cancelled', 'guest phoned']),
      );
      for (const part of bookings) {
        const events = await bookingEvents(h, v.salon, part.bookingId);
        assert.equal(events.at(-1).event, 'booking.cancelled');
      }
      expectError(await admin(h.app, 'POST', `/visits/${visitId}/cancel`), 409, 'booking.invalid_transition');
      expectError(await admin(h.app, 'POST', '/visits/vst_unknown/cancel'), 404, 'booking.not_found');
      // the time is free again
      const again = await search(v, { staffId: v.cili });
      assert.ok(again.body.data.slots.some((s: any) => s.startTime === '14:00'));
    });
  });
}
