/**
 * Processing time (salon-scheduling.md "Processing time") through the API on every database: a
 * colour's staff member is free while it develops, so another booking's work, a hold or a group
 * session fits there, and nothing fits on the colour's work; moves keep the rule; the database
 * refuses what the engine would not offer (an insert that skips the engine); service reads show
 * the segments and bad segments are refused beside their field; the backfill of migration 023.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { OCCUPANCY_BACKFILL } from '../src/store/migrations/023-occupancy.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { api, createSalon, createService, type SalonFixture, type ServiceFixture } from './helpers/fixtures.ts';
import { bookingHarness, createBooking, createOk, day, expectError, operatorAction, sql } from './helpers/bookings.ts';

const COLOUR_SEGMENTS = [
  { kind: 'work', minutes: 15 },
  { kind: 'processing', minutes: 30 },
  { kind: 'work', minutes: 15 },
];

// A database of its own: the backfill check rewrites every occupancy row.
for (const target of isolatedDbTargets()) {
  describe(`processing time (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    /** A salon whose staff also colour: 60 minutes, free from +15 to +45. */
    async function colourSalon(): Promise<{ salon: SalonFixture; colour: ServiceFixture; anna: string }> {
      const salon = await createSalon(h.app);
      const colour = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Colour',
        durationMinutes: 60,
        segments: COLOUR_SEGMENTS,
      });
      const anna = salon.staff[0]!.id;
      await adminOk(h.app, 'PATCH', `/staff/${anna}`, { serviceIds: [salon.service.id, salon.manualService.id, colour.id] });
      return { salon, colour, anna };
    }

    async function offered(salon: SalonFixture, serviceId: string, staffId: string): Promise<string[]> {
      const r = await api(h.app, salon.key.secret, 'POST', '/availability/search', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId,
        staffId,
        dateRange: { from: day(2), to: day(2) },
      });
      assert.equal(r.status, 200, r.raw);
      return r.body.data.slots.map((s: any) => s.startTime);
    }

    test('reads show the segments; a service without them shows one work segment', async () => {
      const { salon, colour } = await colourSalon();
      assert.deepEqual(colour.segments, COLOUR_SEGMENTS);
      const r = await api(h.app, salon.key.secret, 'GET', `/services?salonSlug=${salon.business.slug}&locationSlug=${salon.location.slug}`);
      assert.equal(r.status, 200, r.raw);
      const byId = new Map(r.body.data.services.map((s: any) => [s.id, s]));
      assert.deepEqual((byId.get(colour.id) as any).segments, COLOUR_SEGMENTS);
      assert.deepEqual((byId.get(salon.service.id) as any).segments, [{ kind: 'work', minutes: 30 }]);
    });

    test("another booking's work fits in the processing time, not on the colour's work", async () => {
      const { salon, colour, anna } = await colourSalon();
      await createOk(h, salon, { service: colour, staffId: anna, startTime: '10:00' });
      // a 30-minute cut: 10:15-10:45 is exactly the processing time
      const times = await offered(salon, salon.service.id, anna);
      assert.ok(times.includes('10:15'), times.join(','));
      for (const t of ['09:45', '10:00', '10:30', '10:45']) assert.ok(!times.includes(t), `${t} offered over the colour's work`);
      await createOk(h, salon, { staffId: anna, startTime: '10:15' });
      expectError(await createBooking(h, salon, { staffId: anna, startTime: '10:30' }), 409, 'booking.slot_no_longer_available');
      // a second colour whose processing covers the first one's last work: 10:45 work? no — 10:30 starts work at 10:30
      const colours = await offered(salon, colour.id, anna);
      assert.ok(!colours.includes('10:30') && !colours.includes('09:45'), colours.join(','));
      const [rows] = await sql(
        h,
        'SELECT count(*)::int AS n FROM occupancy o JOIN bookings b ON b.id = o.booking_id WHERE b.business_id = $1',
        [salon.business.id],
      );
      assert.equal(rows.n, 3, 'two rows for the colour (its work parts), one for the cut');
    });

    test('two colours interleave: the second works while the first develops', async () => {
      const { salon, colour, anna } = await colourSalon();
      await createOk(h, salon, { service: colour, staffId: anna, startTime: '10:00' });
      // 10:15-10:30 work, 10:30-11:00 processing, 11:00-11:15 work: its work misses 10:00-10:15 and 10:45-11:00
      const times = await offered(salon, colour.id, anna);
      assert.ok(times.includes('10:15'), times.join(','));
      await createOk(h, salon, { service: colour, staffId: anna, startTime: '10:15' });
    });

    test('a hold sits in the processing time; a group session may too', async () => {
      const { salon, colour, anna } = await colourSalon();
      await createOk(h, salon, { service: colour, staffId: anna, startTime: '11:00' });
      const held = await api(h.app, salon.key.secret, 'POST', '/holds', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: anna,
        slot: { date: day(2), startTime: '11:15' },
      });
      assert.equal(held.status, 201, held.raw);
      const clash = await api(h.app, salon.key.secret, 'POST', '/holds', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: anna,
        slot: { date: day(2), startTime: '11:30' },
      });
      expectError(clash, 409, 'booking.slot_unavailable');

      const yoga = (
        await adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/services`, {
          locationSlug: salon.location.slug,
          name: 'Jóga',
          durationMinutes: 60,
          priceType: 'negotiable',
          price: null,
          requestAcceptancePolicy: 'automatic',
          bookingMode: 'groupSession',
        })
      ).service;
      await adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/services`, {
        locationSlug: salon.location.slug,
        name: 'Long colour',
        durationMinutes: 120,
        priceType: 'negotiable',
        price: null,
        requestAcceptancePolicy: 'automatic',
        segments: [
          { kind: 'work', minutes: 15 },
          { kind: 'processing', minutes: 90 },
          { kind: 'work', minutes: 15 },
        ],
      });
      const bence = salon.staff[1]!.id;
      await adminOk(h.app, 'PATCH', `/staff/${bence}`, { serviceIds: [salon.service.id, colour.id, yoga.id] });
      await createOk(h, salon, { service: colour, staffId: bence, startTime: '13:00' });
      // Budapest is UTC+2 in June: 13:15-13:45 local is processing; a session there is allowed, not one at 13:00
      const inside = await admin(h.app, 'POST', `/services/${yoga.id}/sessions`, {
        staffId: bence,
        startAtUtc: `${day(2)}T11:15:00.000Z`,
        endAtUtc: `${day(2)}T11:45:00.000Z`,
        capacityMax: 4,
      });
      assert.ok(inside.status === 200 || inside.status === 201, inside.raw);
      const overWork = await admin(h.app, 'POST', `/services/${yoga.id}/sessions`, {
        staffId: bence,
        startAtUtc: `${day(2)}T11:45:00.000Z`,
        endAtUtc: `${day(2)}T12:15:00.000Z`,
        capacityMax: 4,
      });
      assert.equal(overWork.status, 409, overWork.raw);
    });

    test('a move keeps the rule: into the processing time of another colour, not onto its work', async () => {
      const { salon, colour, anna } = await colourSalon();
      await createOk(h, salon, { service: colour, staffId: anna, startTime: '14:00' });
      const cut = await createOk(h, salon, { staffId: anna, startTime: '16:00' });
      const clash = await operatorAction(h, cut.bookingId, 'reschedule', { date: day(2), startTime: '14:30', staffId: anna });
      assert.equal(clash.status, 409, clash.raw);
      const moved = await operatorAction(h, cut.bookingId, 'reschedule', { date: day(2), startTime: '14:15', staffId: anna });
      assert.equal(moved.status, 200, moved.raw);
      const [row] = await sql(h, 'SELECT count(*)::int AS n FROM occupancy WHERE booking_id = $1', [cut.bookingId]);
      assert.equal(row.n, 1);
      await operatorAction(h, cut.bookingId, 'cancel');
      const [gone] = await sql(h, 'SELECT count(*)::int AS n FROM occupancy WHERE booking_id = $1', [cut.bookingId]);
      assert.equal(gone.n, 0, 'a cancelled booking occupies nothing');
    });

    test('the database refuses an overlap on work even when the engine is skipped', async () => {
      const { salon, colour, anna } = await colourSalon();
      const first = await createOk(h, salon, { service: colour, staffId: anna, startTime: '12:00' });
      const second = await createOk(h, salon, { staffId: anna, startTime: '12:15' });
      // push the cut onto the colour's last work part behind the API's back
      await assert.rejects(
        sql(
          h,
          `UPDATE bookings SET occupied = tstzrange(lower(occupied) + interval '20 minutes', upper(occupied) + interval '20 minutes') WHERE id = $1`,
          [second.bookingId],
        ),
        (err: any) => err.code === '23P01',
      );
      assert.ok(first.bookingId);
    });

    test('segments are checked beside their field', async () => {
      const { salon, colour } = await colourSalon();
      const base = {
        locationSlug: salon.location.slug,
        name: 'Bad',
        durationMinutes: 60,
        priceType: 'negotiable',
        price: null,
        requestAcceptancePolicy: 'automatic',
      };
      for (const segments of [
        [
          { kind: 'work', minutes: 15 },
          { kind: 'processing', minutes: 30 },
        ],
        [
          { kind: 'processing', minutes: 30 },
          { kind: 'work', minutes: 30 },
        ],
        [
          { kind: 'work', minutes: 20 },
          { kind: 'work', minutes: 40 },
        ],
        [
          { kind: 'work', minutes: 15 },
          { kind: 'processing', minutes: 30 },
          { kind: 'work', minutes: 10 },
        ],
      ]) {
        const r = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/services`, { ...base, segments });
        assert.equal(r.status, 400, r.raw);
        assert.equal(r.body.error.code, 'request.validation_failed');
        assert.equal(r.body.error.details?.issues?.[0]?.path ?? r.body.error.details?.field, 'body.segments', r.raw);
      }
      // a duration change that no longer matches the segments names the duration
      const r = await admin(h.app, 'PATCH', `/services/${colour.id}`, { durationMinutes: 90 });
      assert.equal(r.status, 400, r.raw);
      // with new segments it is fine, and null takes them away
      const ok = await adminOk(h.app, 'PATCH', `/services/${colour.id}`, {
        durationMinutes: 90,
        segments: [
          { kind: 'work', minutes: 30 },
          { kind: 'processing', minutes: 30 },
          { kind: 'work', minutes: 30 },
        ],
      });
      assert.equal(ok.service.segments.length, 3);
      const plain = await adminOk(h.app, 'PATCH', `/services/${colour.id}`, { segments: null });
      assert.deepEqual(plain.service.segments, [{ kind: 'work', minutes: 90 }]);
    });

    test('the backfill rebuilds exactly the rows the triggers wrote', async () => {
      const { salon, colour, anna } = await colourSalon();
      await createOk(h, salon, { service: colour, staffId: anna, startTime: '09:00' });
      await createOk(h, salon, { staffId: anna, startTime: '09:15' });
      const cancelled = await createOk(h, salon, { staffId: anna, startTime: '10:00' });
      await operatorAction(h, cancelled.bookingId, 'cancel');
      const rows = 'SELECT booking_id, hold_id, staff_id, during::text FROM occupancy ORDER BY 1, 2, 4';
      const before = await sql(h, rows);
      assert.ok(before.length >= 3);
      await h.db.transaction(async (tx) => {
        await tx.query('DELETE FROM occupancy');
        await tx.exec(OCCUPANCY_BACKFILL);
      });
      assert.deepEqual(await sql(h, rows), before);
    });
  });
}
