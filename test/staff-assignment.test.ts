/**
 * Who gets an "any staff" booking (salon-scheduling.md): a location's `staffAssignment` — `ordered`
 * (default: display order, staff `position` then name) or `balanced` (fewest booked minutes that
 * local day, ties in display order) — for creates and holds without `staffId`; bad values are a
 * 400 in the envelope naming the field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bookingHarness, cancel, createOk, day } from './helpers/bookings.ts';
import { dbTargets } from './helpers/databases.ts';
import { api, createSalon, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';

for (const target of dbTargets()) {
  describe(`staff assignment [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    /** The fixture's Anna and Bence, and Cili: all three perform the automatic service every day 9-17. */
    async function salonOfThree(): Promise<{ salon: SalonFixture; byName: Record<string, string>; nameOf: Map<string, string> }> {
      const salon = await createSalon(h.app);
      const cili = await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds: [salon.service.id] });
      const all = [...salon.staff, cili];
      return {
        salon,
        byName: Object.fromEntries(all.map((s) => [s.name, s.id])),
        nameOf: new Map(all.map((s) => [s.id, s.name])),
      };
    }

    const anyStaff = async (salon: SalonFixture, date: string, startTime: string) =>
      (await createOk(h, salon, { staffId: undefined, date, startTime })).staffId as string;

    test('ordered (the default): display order, by name until positions are set, then by position', async () => {
      const { salon, byName, nameOf } = await salonOfThree();
      const location = (await adminOk(h.app, 'GET', `/businesses/${salon.business.slug}/locations`)).locations[0];
      assert.equal(location.staffAssignment, 'ordered');
      const first = [];
      for (let i = 0; i < 3; i++) first.push(nameOf.get(await anyStaff(salon, day(2), '10:00')));
      assert.deepEqual(first, ['Anna', 'Bence', 'Cili']);

      const cili = (await adminOk(h.app, 'PATCH', `/staff/${byName.Cili}`, { position: 0 })).staff;
      assert.equal(cili.position, 0);
      await adminOk(h.app, 'PATCH', `/staff/${byName.Bence}`, { position: 1 });
      const second = [];
      for (let i = 0; i < 3; i++) second.push(nameOf.get(await anyStaff(salon, day(2), '11:00')));
      assert.deepEqual(second, ['Cili', 'Bence', 'Anna'], 'position first, then those without one');

      // a hold asked for without a staff member follows the same order
      const r = await api(h.app, salon.key.secret, 'POST', '/holds', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        slot: { date: day(2), startTime: '12:00' },
      });
      assert.equal(r.status, 201, r.raw);
      assert.equal(nameOf.get(r.body.data.hold.staffId), 'Cili');
    });

    test('balanced: the free staff member with the fewest booked minutes that day; ties in display order; cancelled ones do not count', async () => {
      const { salon, byName, nameOf } = await salonOfThree();
      const patched = (
        await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/locations/${salon.location.slug}`, {
          staffAssignment: 'balanced',
        })
      ).location;
      assert.equal(patched.staffAssignment, 'balanced');
      // Anna two bookings, Bence one, Cili none on day(3); a cancelled one of Cili's takes no minutes
      await createOk(h, salon, { staffId: byName.Anna, date: day(3), startTime: '09:00' });
      await createOk(h, salon, { staffId: byName.Anna, date: day(3), startTime: '13:00' });
      await createOk(h, salon, { staffId: byName.Bence, date: day(3), startTime: '09:00' });
      const gone = await createOk(h, salon, { staffId: byName.Cili, date: day(3), startTime: '09:00' });
      assert.equal((await cancel(h, salon, gone.bookingId)).status, 200);

      const order = [];
      for (let i = 0; i < 3; i++) order.push(nameOf.get(await anyStaff(salon, day(3), '15:00')));
      assert.deepEqual(order, ['Cili', 'Bence', 'Anna']);
      // another day: nobody has minutes, so display order decides
      assert.equal(nameOf.get(await anyStaff(salon, day(4), '15:00')), 'Anna');
    });

    test('a staff member asked for by id is not reassigned', async () => {
      const { salon, byName } = await salonOfThree();
      await adminOk(h.app, 'PATCH', `/staff/${byName.Cili}`, { position: 0 });
      const b = await createOk(h, salon, { staffId: byName.Bence, date: day(5), startTime: '10:00' });
      assert.equal(b.staffId, byName.Bence);
    });

    test('an unknown assignment or a position out of range: 400 naming the field', async () => {
      const { salon, byName } = await salonOfThree();
      const bad = await admin(h.app, 'PATCH', `/businesses/${salon.business.slug}/locations/${salon.location.slug}`, {
        staffAssignment: 'random',
      });
      assert.equal(bad.status, 400, bad.raw);
      assert.equal(bad.body.error.code, 'request.validation_failed');
      assert.ok(
        bad.body.error.details.issues.some((i: { path: string }) => i.path === 'body.staffAssignment'),
        bad.raw,
      );
      for (const position of [-1, 10_001, 1.5, 'first']) {
        const r = await admin(h.app, 'PATCH', `/staff/${byName.Anna}`, { position });
        assert.equal(r.status, 400, r.raw);
        assert.ok(
          r.body.error.details.issues.some((i: { path: string }) => i.path === 'body.position'),
          r.raw,
        );
      }
      const cleared = (await adminOk(h.app, 'PATCH', `/staff/${byName.Anna}`, { position: null })).staff;
      assert.equal(cleared.position, null);
    });
  });
}
