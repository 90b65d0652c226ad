/**
 * POST /v1/availability/explain and the operator's (salon-scheduling.md, "Explain"): per staff
 * member, whether a time is bookable and why not — booked, held, time off, outside the hours, in the
 * past, off the grid, not performed, the location switched off — in agreement with the search of
 * that day; the operator's answer names the booking or hold in the way, the public one never does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bookingHarness, createOk, day } from './helpers/bookings.ts';
import { dbTargets } from './helpers/databases.ts';
import { api, createSalon, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';

for (const target of dbTargets()) {
  describe(`availability explain [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    const explain = (salon: SalonFixture, body: Record<string, unknown>) =>
      api(h.app, salon.key.secret, 'POST', '/availability/explain', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        ...body,
      });
    const explainOk = async (salon: SalonFixture, body: Record<string, unknown>) => {
      const r = await explain(salon, body);
      assert.equal(r.status, 200, r.raw);
      return r.body.data.explanation;
    };
    const operatorExplain = async (salon: SalonFixture, body: Record<string, unknown>) =>
      (
        await adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/availability/explain`, {
          locationSlug: salon.location.slug,
          serviceId: salon.service.id,
          ...body,
        })
      ).explanation;
    const byName = (e: { staff: Array<{ staffName: string; reasons: string[] }> }) =>
      Object.fromEntries(e.staff.map((s) => [s.staffName, s.reasons]));

    test('booked, time off and held, each named; the operator sees what is in the way, the public answer does not', async () => {
      const salon = await createSalon(h.app);
      const [anna, bence] = salon.staff;
      const booking = await createOk(h, salon, { staffId: anna!.id, date: day(2), startTime: '10:00' });
      await adminOk(h.app, 'POST', `/staff/${bence!.id}/time-off`, {
        from: { date: day(2), time: '09:00' },
        to: { date: day(2), time: '12:00' },
      });

      const e = await explainOk(salon, { date: day(2), startTime: '10:00' });
      assert.equal(e.bookable, false);
      assert.deepEqual([e.date, e.startTime, e.timezone], [day(2), '10:00', 'Europe/Budapest']);
      assert.deepEqual(byName(e), { Anna: ['booked'], Bence: ['time_off'] });
      assert.ok(
        e.staff.every((s: Record<string, unknown>) => !('bookingIds' in s) && !('holdIds' in s)),
        'the public answer never says whose',
      );

      const o = await operatorExplain(salon, { date: day(2), startTime: '10:00' });
      const annaEntry = o.staff.find((s: { staffId: string }) => s.staffId === anna!.id);
      assert.deepEqual([annaEntry.bookingIds, annaEntry.holdIds], [[booking.bookingId], []]);

      const held = await api(h.app, salon.key.secret, 'POST', '/holds', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: anna!.id,
        slot: { date: day(2), startTime: '14:00' },
      });
      assert.equal(held.status, 201, held.raw);
      assert.deepEqual((await explainOk(salon, { date: day(2), startTime: '14:00', staffId: anna!.id })).staff[0].reasons, ['held']);
      const oh = await operatorExplain(salon, { date: day(2), startTime: '14:00', staffId: anna!.id });
      assert.deepEqual(oh.staff[0].holdIds, [held.body.data.hold.holdId ?? held.body.data.hold.id]);
      // the buffer-free 30 minutes after the booking are free again
      const free = await explainOk(salon, { date: day(2), startTime: '10:30', staffId: anna!.id });
      assert.deepEqual([free.bookable, free.staff[0].bookable, free.staff[0].reasons], [true, true, []]);
    });

    test('outside the hours, in the past, off the grid, not performed, the location switched off', async () => {
      const salon = await createSalon(h.app);
      const [anna] = salon.staff;
      assert.deepEqual(byName(await explainOk(salon, { date: day(2), startTime: '20:00' })), {
        Anna: ['outside_working_hours'],
        Bence: ['outside_working_hours'],
      });
      assert.deepEqual(
        byName(await explainOk(salon, { date: day(2), startTime: '16:45' })).Anna,
        ['outside_working_hours'],
        'does not fit before 17:00',
      );
      assert.deepEqual(byName(await explainOk(salon, { date: day(0), startTime: '09:00' })).Anna, ['in_the_past']);
      assert.deepEqual(byName(await explainOk(salon, { date: day(2), startTime: '10:05' })).Anna, ['not_on_interval']);

      const cili = await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds: [] });
      const c = await explainOk(salon, { date: day(2), startTime: '10:00', staffId: cili.id });
      assert.deepEqual(
        c.staff.map((s: { staffName: string; reasons: string[] }) => [s.staffName, s.reasons]),
        [['Cili', ['staff_does_not_offer_service']]],
      );

      await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/locations/${salon.location.slug}`, { bookingEnabled: false });
      const off = await explainOk(salon, { date: day(2), startTime: '10:00', staffId: anna!.id });
      assert.deepEqual([off.bookable, off.staff[0].reasons], [false, ['location_booking_disabled']]);
    });

    test("explain agrees with the day's search for every staff member and grid time", async () => {
      const salon = await createSalon(h.app);
      const [anna, bence] = salon.staff;
      await createOk(h, salon, { staffId: anna!.id, date: day(3), startTime: '11:00' });
      await createOk(h, salon, { staffId: bence!.id, date: day(3), startTime: '09:30' });
      const search = await api(h.app, salon.key.secret, 'POST', '/availability/search', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        dateRange: { from: day(3), to: day(3) },
      });
      assert.equal(search.status, 200, search.raw);
      const offered = new Set(search.body.data.slots.map((s: { staffId: string; startTime: string }) => `${s.staffId} ${s.startTime}`));
      for (let minute = 8 * 60; minute <= 17 * 60; minute += 15) {
        const startTime = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
        const e = await explainOk(salon, { date: day(3), startTime });
        for (const s of e.staff)
          assert.equal(s.bookable, offered.has(`${s.staffId} ${startTime}`), `${s.staffName} at ${startTime}: ${s.reasons}`);
      }
    });

    test('bad input is a 400 naming the field; an unknown staff member or service a 404', async () => {
      const salon = await createSalon(h.app);
      const bad = async (body: Record<string, unknown>, path: string) => {
        const r = await explain(salon, { date: day(2), startTime: '10:00', ...body });
        assert.equal(r.status, 400, r.raw);
        assert.equal(r.body.error.code, 'request.validation_failed');
        assert.ok(
          r.body.error.details.issues.some((i: { path: string }) => i.path === path),
          r.raw,
        );
      };
      await bad({ date: '2031-02-30' }, 'body.date');
      await bad({ startTime: '25:00' }, 'body.startTime');
      await bad({ unknown: 1 }, 'body.unknown');
      const noStaff = await explain(salon, { date: day(2), startTime: '10:00', staffId: 'stf_nobody' });
      assert.equal(noStaff.status, 404, noStaff.raw);
      assert.equal(noStaff.body.error.code, 'catalog.staff_not_found');
      const noService = await explain(salon, { date: day(2), startTime: '10:00', serviceId: 'svc_nothing' });
      assert.equal(noService.body.error.code, 'catalog.service_not_found');
      const r = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/availability/explain`, {
        locationSlug: 'nowhere',
        serviceId: salon.service.id,
        date: day(2),
        startTime: '10:00',
      });
      assert.equal(r.status, 404, r.raw);
    });
  });
}
