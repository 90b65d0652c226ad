/**
 * A business whose plan has no bookings left this month (salon-scheduling.md "Explain",
 * `quota_exceeded`): no create could succeed, so a search offers nothing (meta.availabilitySuppressed)
 * and explain says `quota_exceeded` for every staff member; a higher limit brings the times back,
 * through the cached search too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { adminOk, type Harness } from './helpers/harness.ts';
import { api, createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { bookingHarness, createOk, day } from './helpers/bookings.ts';

for (const target of dbTargets()) {
  describe(`availability with the monthly quota used up (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    function search(salon: SalonFixture) {
      return api(h.app, salon.key.secret, 'POST', '/availability/search', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        dateRange: { from: day(3), to: day(3) },
      });
    }

    test('search offers nothing and explain says quota_exceeded; a higher limit brings the times back', async () => {
      const salon = await createSalon(h.app, { subscription: { plan: 'pro', status: 'active', maxBookingsPerMonth: 1 } });
      const before = await search(salon);
      assert.ok(before.body.data.slots.length > 0, before.raw);
      assert.equal(before.body.meta.availabilitySuppressed, undefined);

      await createOk(h, salon, { startTime: '10:00' });
      const after = await search(salon);
      assert.equal(after.status, 200, after.raw);
      assert.deepEqual(after.body.data.slots, []);
      assert.equal(after.body.meta.availabilitySuppressed, true);

      const explained = await api(h.app, salon.key.secret, 'POST', '/availability/explain', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        date: day(3),
        startTime: '11:00',
      });
      assert.equal(explained.status, 200, explained.raw);
      assert.equal(explained.body.data.explanation.bookable, false);
      for (const s of explained.body.data.explanation.staff) assert.deepEqual(s.reasons, ['quota_exceeded']);

      const patched = await adminOk(h.app, 'PATCH', `/businesses/${salon.business.slug}/subscription`, { maxBookingsPerMonth: 5 });
      assert.equal(patched.subscription.maxBookingsPerMonth, 5);
      const again = await search(salon);
      assert.ok(again.body.data.slots.length > 0, again.raw);
    });
  });
}
