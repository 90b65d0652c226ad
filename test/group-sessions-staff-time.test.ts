/**
 * A group session takes its staff member's time: it is not offered to standard services, cannot be
 * booked over (public create, manual booking, reschedule), and cannot itself be scheduled over the
 * staff member's bookings or another of their sessions. Enforced by triggers (migration 003).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { api, createSalon, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import { bookingHarness, createBooking, createOk, day, expectError, operatorAction } from './helpers/bookings.ts';

for (const target of dbTargets()) {
  describe(`group sessions hold their staff member's time [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    /** Anna (staff[0]) also teaches yoga: day(2) 10:00-11:00 Budapest = 08:00-09:00 UTC. */
    async function salonWithClass(): Promise<{ salon: SalonFixture; yogaId: string; annaId: string }> {
      const salon = await createSalon(h.app);
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
      const annaId = salon.staff[0]!.id;
      await adminOk(h.app, 'PATCH', `/staff/${annaId}`, { serviceIds: [salon.service.id, salon.manualService.id, yoga.id] });
      await adminOk(h.app, 'POST', `/services/${yoga.id}/sessions`, {
        staffId: annaId,
        startAtUtc: `${day(2)}T08:00:00.000Z`,
        endAtUtc: `${day(2)}T09:00:00.000Z`,
        capacityMax: 8,
      });
      return { salon, yogaId: yoga.id, annaId };
    }

    test('the session is not offered for standard services, and cannot be booked', async () => {
      const { salon, annaId } = await salonWithClass();
      const r = await api(h.app, salon.key.secret, 'POST', '/availability/search', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: annaId,
        dateRange: { from: day(2), to: day(2) },
      });
      assert.equal(r.status, 200, r.raw);
      const times = r.body.data.slots.map((s: any) => s.startTime);
      // 30-minute service: 09:30 ends at the class start, 11:00 starts at its end
      assert.ok(times.includes('09:30') && times.includes('11:00'), times.join(','));
      for (const t of ['10:00', '10:15', '10:30', '10:45', '09:45']) assert.ok(!times.includes(t), `${t} offered during the class`);

      expectError(await createBooking(h, salon, { staffId: annaId, startTime: '10:30' }), 409, 'booking.slot_no_longer_available');
      // without staffId the other staff member takes it
      const b = await createOk(h, salon, { staffId: undefined, startTime: '10:30' });
      assert.equal(b.staffId, salon.staff[1]!.id);
    });

    test('manual bookings and reschedules cannot land on the session', async () => {
      const { salon, annaId } = await salonWithClass();
      const manual = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: annaId,
        date: day(2),
        startTime: '10:15',
        guest: { name: 'Walk-in', phone: '+36301112233' },
      });
      expectError(manual, 409, 'booking.slot_unavailable');

      const booked = await createOk(h, salon, { staffId: annaId, startTime: '13:00' });
      const moved = await operatorAction(h, booked.bookingId, 'reschedule', { date: day(2), startTime: '10:00' });
      expectError(moved, 409, 'booking.slot_unavailable');
    });

    test('a session whose staff member went inactive or took time off is not offered, nor booked with a token issued before', async () => {
      for (const change of ['inactive', 'time off'] as const) {
        const { salon, yogaId, annaId } = await salonWithClass();
        const search = () =>
          api(h.app, salon.key.secret, 'POST', '/availability/search', {
            salonSlug: salon.business.slug,
            locationSlug: salon.location.slug,
            serviceId: yogaId,
            dateRange: { from: day(2), to: day(2) },
          });
        const before = await search();
        assert.equal(before.body.data.slots.length, 1, before.raw);
        const slot = before.body.data.slots[0];
        if (change === 'inactive') await adminOk(h.app, 'PATCH', `/staff/${annaId}`, { active: false });
        else
          await adminOk(h.app, 'POST', `/staff/${annaId}/time-off`, {
            from: { date: day(2), time: '00:00' },
            to: { date: day(3), time: '00:00' },
          });
        const after = await search();
        assert.deepEqual(after.body.data.slots, [], `${change}: ${after.raw}`);
        const booked = await createBooking(h, salon, {
          service: { id: yogaId, pricingVersion: '' },
          staffId: undefined,
          expectedPricingVersion: undefined,
          slot: undefined,
          sessionId: slot.sessionId,
          slotToken: slot.slotToken,
        });
        expectError(booked, 409, 'booking.slot_unavailable');
      }
    });

    test("a session cannot be scheduled over the staff member's bookings or another session", async () => {
      const { salon, yogaId, annaId } = await salonWithClass();
      await createOk(h, salon, { staffId: annaId, startTime: '14:00' }); // 12:00-12:30 UTC
      const session = (startAtUtc: string, endAtUtc: string, staffId = annaId) =>
        admin(h.app, 'POST', `/services/${yogaId}/sessions`, { staffId, startAtUtc, endAtUtc, capacityMax: 4 });
      expectError(await session(`${day(2)}T12:15:00.000Z`, `${day(2)}T13:00:00.000Z`), 409, 'booking.slot_unavailable');
      expectError(await session(`${day(2)}T08:30:00.000Z`, `${day(2)}T09:30:00.000Z`), 409, 'booking.slot_unavailable');
      // touching is not overlapping; another staff member is free
      const ok1 = await session(`${day(2)}T12:30:00.000Z`, `${day(2)}T13:30:00.000Z`);
      assert.equal(ok1.status, 200, ok1.raw);
      const cili = await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds: [yogaId] });
      const ok2 = await session(`${day(2)}T08:00:00.000Z`, `${day(2)}T09:00:00.000Z`, cili.id);
      assert.equal(ok2.status, 200, ok2.raw);
    });
  });
}
