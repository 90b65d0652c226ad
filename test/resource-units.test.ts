/**
 * Resources enforced (salon-scheduling.md "Resources") through the API on every database: a
 * service that needs a basin is offered only while a unit is free, for the whole service with its
 * processing; each booking is assigned a unit the operator reads show; a time with every unit
 * taken is refused by the database even when the engine is skipped; explain names the resource;
 * lowering the quantity below a unit in use is 409 resource.in_use; an inactive resource no longer
 * limits. Races across two instances are in resource-race.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { api, createSalon, createService, createStaff, type SalonFixture, type ServiceFixture } from './helpers/fixtures.ts';
import { bookingHarness, createBooking, createOk, day, expectError, operatorAction, sql } from './helpers/bookings.ts';

for (const target of dbTargets()) {
  describe(`resource units (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    /** Three stylists, two wash basins; the wash (30 min) and a colour with processing need a basin. */
    async function basinSalon(): Promise<{
      salon: SalonFixture;
      wash: ServiceFixture;
      colour: ServiceFixture;
      staff: string[];
      basin: string;
    }> {
      const salon = await createSalon(h.app);
      const basin = (
        await adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/resources`, {
          locationSlug: salon.location.slug,
          name: 'Wash basin',
          quantity: 2,
        })
      ).resource.id;
      const wash = await createService(h.app, salon.business.slug, salon.location.slug, { name: 'Wash', resourceIds: [basin] });
      const colour = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Colour',
        durationMinutes: 60,
        resourceIds: [basin],
        segments: [
          { kind: 'work', minutes: 15 },
          { kind: 'processing', minutes: 30 },
          { kind: 'work', minutes: 15 },
        ],
      });
      const serviceIds = [salon.service.id, wash.id, colour.id];
      for (const s of salon.staff) await adminOk(h.app, 'PATCH', `/staff/${s.id}`, { serviceIds });
      const cili = await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds });
      return { salon, wash, colour, staff: [...salon.staff.map((s) => s.id), cili.id], basin };
    }

    async function offeredStaff(salon: SalonFixture, serviceId: string, startTime: string): Promise<string[]> {
      const r = await api(h.app, salon.key.secret, 'POST', '/availability/search', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId,
        dateRange: { from: day(2), to: day(2) },
      });
      assert.equal(r.status, 200, r.raw);
      return r.body.data.slots.filter((s: any) => s.startTime === startTime).map((s: any) => s.staffId);
    }

    test('two basins: two bookings at one time get units 1 and 2, the third is neither offered nor taken', async () => {
      const { salon, wash, colour, staff, basin } = await basinSalon();
      assert.equal((await offeredStaff(salon, wash.id, '10:00')).length, 3);
      const first = await createOk(h, salon, { service: wash, staffId: staff[0], startTime: '10:00' });
      // the colour's processing keeps its basin: its guest stays in the chair
      const second = await createOk(h, salon, { service: colour, staffId: staff[1], startTime: '09:45' });
      assert.deepEqual(await offeredStaff(salon, wash.id, '10:00'), [], 'no basin left at 10:00');
      // a cut needs no basin: Bence (whose colour is processing) and Cili may cut
      assert.deepEqual((await offeredStaff(salon, salon.service.id, '10:00')).sort(), [staff[1], staff[2]].sort());
      expectError(
        await createBooking(h, salon, { service: wash, staffId: staff[2], startTime: '10:00' }),
        409,
        'booking.slot_no_longer_available',
      );
      // from 10:45 the colour's basin is free again
      assert.equal((await offeredStaff(salon, wash.id, '10:45')).length, 3, 'the colour and its basin are free from 10:45');

      const reads = await Promise.all([first, second].map((b) => adminOk(h.app, 'GET', `/bookings/${b.bookingId}`)));
      const units = reads.map((r) => r.booking.resources);
      assert.deepEqual(
        units.map((u: any[]) => u.map((x) => [x.resourceId, x.name])),
        [[[basin, 'Wash basin']], [[basin, 'Wash basin']]],
      );
      assert.deepEqual(units.map((u: any[]) => u[0].unit).sort(), [1, 2], 'each has its own unit');

      // behind the API's back: a third basin booking at 10:00 is refused by the database
      await assert.rejects(
        sql(
          h,
          `UPDATE bookings SET resource_ids = ARRAY[$2] WHERE id = (SELECT id FROM bookings WHERE business_id = $1 AND service_id = $3 LIMIT 1)`,
          [salon.business.id, basin, wash.id],
        ).then(async () => {
          const cut = await createOk(h, salon, { staffId: staff[2], startTime: '10:00' });
          await sql(h, 'UPDATE bookings SET resource_ids = ARRAY[$2] WHERE id = $1', [cut.bookingId, basin]);
        }),
        (err: any) => err.code === '23P01',
      );
    });

    test('explain names the resource; the operator lowering the quantity below a unit in use is 409 resource.in_use', async () => {
      const { salon, wash, staff, basin } = await basinSalon();
      await createOk(h, salon, { service: wash, staffId: staff[0], startTime: '11:00' });
      await createOk(h, salon, { service: wash, staffId: staff[1], startTime: '11:00' });
      const r = await api(h.app, salon.key.secret, 'POST', '/availability/explain', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: wash.id,
        staffId: staff[2],
        date: day(2),
        startTime: '11:00',
      });
      assert.equal(r.status, 200, r.raw);
      const [entry] = r.body.data.explanation.staff;
      assert.deepEqual(entry.reasons, ['resource_unavailable']);
      assert.deepEqual(entry.resources, [{ resourceId: basin, name: 'Wash basin' }]);

      const lower = await admin(h.app, 'PATCH', `/resources/${basin}`, { quantity: 1 });
      assert.equal(lower.status, 409, lower.raw);
      assert.equal(lower.body.error.code, 'resource.in_use');
      const raise = await adminOk(h.app, 'PATCH', `/resources/${basin}`, { quantity: 3 });
      assert.equal(raise.resource.quantity, 3);
      assert.equal((await offeredStaff(salon, wash.id, '11:00')).length, 1, 'a third basin: the third stylist can wash');
    });

    test('a move takes a unit at the new time and frees the old one; a cancel frees it', async () => {
      const { salon, wash, staff } = await basinSalon();
      const a = await createOk(h, salon, { service: wash, staffId: staff[0], startTime: '13:00' });
      await createOk(h, salon, { service: wash, staffId: staff[1], startTime: '13:00' });
      await createOk(h, salon, { service: wash, staffId: staff[0], startTime: '14:00' });
      await createOk(h, salon, { service: wash, staffId: staff[1], startTime: '14:00' });
      const clash = await operatorAction(h, a.bookingId, 'reschedule', { date: day(2), startTime: '14:00', staffId: staff[2] });
      assert.equal(clash.status, 409, clash.raw);
      const moved = await operatorAction(h, a.bookingId, 'reschedule', { date: day(2), startTime: '15:00', staffId: staff[2] });
      assert.equal(moved.status, 200, moved.raw);
      assert.deepEqual((await offeredStaff(salon, wash.id, '13:00')).sort(), [staff[0], staff[2]].sort(), 'the old unit is free again');
      await operatorAction(h, a.bookingId, 'cancel');
      const [rows] = await sql(h, 'SELECT count(*)::int AS n FROM occupancy WHERE booking_id = $1', [a.bookingId]);
      assert.equal(rows.n, 0);
    });

    test('an inactive resource no longer limits the services that list it', async () => {
      const { salon, wash, staff, basin } = await basinSalon();
      await createOk(h, salon, { service: wash, staffId: staff[0], startTime: '16:00' });
      await createOk(h, salon, { service: wash, staffId: staff[1], startTime: '16:00' });
      assert.deepEqual(await offeredStaff(salon, wash.id, '16:00'), []);
      await adminOk(h.app, 'PATCH', `/resources/${basin}`, { active: false });
      assert.deepEqual(await offeredStaff(salon, wash.id, '16:00'), [staff[2]]);
      await createOk(h, salon, { service: wash, staffId: staff[2], startTime: '16:00' });
    });
  });
}
