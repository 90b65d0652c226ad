/**
 * Resources under races (issue 26, "Done when"): two app instances on one PostgreSQL and Redis.
 * N concurrent creates for a resource of quantity Q at one time, each with a different staff
 * member, give exactly Q successes, each with its own unit; the rest are refused as a lost time.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { adminOk } from './helpers/harness.ts';
import { api, createSalon, createService, createStaff } from './helpers/fixtures.ts';
import { CONSENT } from './helpers/bookings.ts';
import { useTwoInstances } from './helpers/two-instances.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const DATE = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
const N = 12;
const Q = 3;

const SUITE = 'resource units across two instances on one PostgreSQL and Redis';
if (!(DATABASE_URL && REDIS_URL)) test(SUITE, { skip: 'needs DATABASE_URL and REDIS_URL' }, () => {});
else
  describe(SUITE, { timeout: 120_000 }, () => {
    const two = useTwoInstances(DATABASE_URL, REDIS_URL, 'resources');

    test(`${N} concurrent creates for a resource of quantity ${Q}: exactly ${Q} succeed, each on its own unit`, async () => {
      const { a, b, db } = two();
      const s = await createSalon(a);
      const chair = (
        await adminOk(a, 'POST', `/businesses/${s.business.slug}/resources`, { locationSlug: s.location.slug, name: 'Chair', quantity: Q })
      ).resource.id;
      const styling = await createService(a, s.business.slug, s.location.slug, { name: 'Styling', resourceIds: [chair] });
      const staff: string[] = [];
      for (let i = 0; i < N; i++) {
        staff.push((await createStaff(a, s.business.slug, s.location.slug, { name: `Stylist ${i}`, serviceIds: [styling.id] })).id);
      }
      const answers = await Promise.all(
        staff.map((staffId, i) =>
          api(i % 2 ? b : a, s.key.secret, 'POST', '/bookings', {
            salonSlug: s.business.slug,
            locationSlug: s.location.slug,
            serviceId: styling.id,
            expectedPricingVersion: styling.pricingVersion,
            staffId,
            slot: { date: DATE, startTime: '10:00' },
            guest: { name: `Guest ${i}`, phone: `+3630${String(2000000 + i)}` },
            consent: CONSENT,
          }),
        ),
      );
      const won = answers.filter((r) => r.status === 201);
      assert.equal(won.length, Q, answers.map((r) => r.raw).join('\n'));
      for (const r of answers.filter((x) => x.status !== 201)) {
        assert.equal(r.status, 409, r.raw);
        assert.equal(r.body.error.code, 'booking.slot_no_longer_available');
      }
      const units = await db.query<{ unit: number }>(
        `SELECT o.unit FROM occupancy o JOIN bookings bk ON bk.id = o.booking_id WHERE bk.business_id = $1 AND o.resource_id = $2 ORDER BY 1`,
        [s.business.id, chair],
      );
      assert.deepEqual(
        units.rows.map((r) => r.unit),
        [1, 2, 3],
      );
    });
  });
