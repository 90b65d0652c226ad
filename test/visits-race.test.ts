/**
 * Visits under races (salon-scheduling.md "Visits": all parts or none): two app instances on one
 * PostgreSQL and Redis. N concurrent visits (a cut, then a colour that needs the one wash basin),
 * each with its own cutter and colourist, and M plain colour bookings at the colour's time all
 * want the basin: exactly one wins it. Every losing visit is refused with nothing written, although
 * its cut alone was free: no visit is ever left with fewer parts than it asked for.
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
const N = 8;
const M = 4;

const SUITE = 'visits across two instances on one PostgreSQL and Redis';
if (!(DATABASE_URL && REDIS_URL)) test(SUITE, { skip: 'needs DATABASE_URL and REDIS_URL' }, () => {});
else
  describe(SUITE, { timeout: 120_000 }, () => {
    const two = useTwoInstances(DATABASE_URL, REDIS_URL, 'visits');

    test(`${N} concurrent visits and ${M} colours for one basin: one wins, no visit is half-created`, async () => {
      const { a, b, db } = two();
      const s = await createSalon(a);
      const { slug } = s.business;
      const basin = (
        await adminOk(a, 'POST', `/businesses/${slug}/resources`, { locationSlug: s.location.slug, name: 'Basin', quantity: 1 })
      ).resource.id;
      const cut = await createService(a, slug, s.location.slug, { name: 'Cut' });
      const colour = await createService(a, slug, s.location.slug, { name: 'Colour', durationMinutes: 60, resourceIds: [basin] });
      const cutters: string[] = [];
      const colourists: string[] = [];
      for (let i = 0; i < N; i++) {
        cutters.push((await createStaff(a, slug, s.location.slug, { name: `Cutter ${i}`, serviceIds: [cut.id] })).id);
      }
      for (let i = 0; i < N + M; i++) {
        colourists.push((await createStaff(a, slug, s.location.slug, { name: `Colourist ${i}`, serviceIds: [colour.id] })).id);
      }
      const common = { salonSlug: slug, locationSlug: s.location.slug, consent: CONSENT };
      const visits = cutters.map((cutter, i) =>
        api(i % 2 ? b : a, s.key.secret, 'POST', '/bookings', {
          ...common,
          visit: [
            { serviceId: cut.id, staffId: cutter },
            { serviceId: colour.id, staffId: colourists[i] },
          ],
          slot: { date: DATE, startTime: '10:00' },
          guest: { name: `Visit ${i}`, phone: `+3630${String(3000000 + i)}` },
        }),
      );
      const colours = Array.from({ length: M }, (_, j) =>
        api(j % 2 ? a : b, s.key.secret, 'POST', '/bookings', {
          ...common,
          serviceId: colour.id,
          staffId: colourists[N + j],
          slot: { date: DATE, startTime: '10:30' },
          guest: { name: `Colour ${j}`, phone: `+3630${String(4000000 + j)}` },
        }),
      );
      const answers = await Promise.all([...visits, ...colours]);
      const won = answers.filter((r) => r.status === 201);
      assert.equal(won.length, 1, answers.map((r) => r.raw).join('\n'));
      for (const r of answers.filter((x) => x.status !== 201)) {
        assert.equal(r.status, 409, r.raw);
        assert.equal(r.body.error.code, 'booking.slot_no_longer_available', r.raw);
      }
      const visitsWon = answers.slice(0, N).filter((r) => r.status === 201);
      for (const r of visitsWon) assert.equal(r.body.data.visit.bookings.length, 2);

      // in the database: every visit has both its parts, and only the winners' rows exist
      const rows = await db.query<{ visit_id: string | null; n: number }>(
        `SELECT visit_id, count(*)::int AS n FROM bookings WHERE business_id = $1 GROUP BY visit_id`,
        [s.business.id],
      );
      const byVisit = rows.rows.filter((r) => r.visit_id !== null);
      assert.deepEqual(
        byVisit.map((r) => r.n),
        visitsWon.map(() => 2),
      );
      const plain = rows.rows.find((r) => r.visit_id === null)?.n ?? 0;
      assert.equal(plain, won.length - visitsWon.length);
      const orphans = await db.query(
        `SELECT v.id FROM visits v WHERE v.business_id = $1 AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.visit_id = v.id)`,
        [s.business.id],
      );
      assert.equal(orphans.rows.length, 0, 'no visit row without its parts');
      const units = await db.query(
        `SELECT o.unit FROM occupancy o JOIN bookings bk ON bk.id = o.booking_id WHERE bk.business_id = $1 AND o.resource_id = $2`,
        [s.business.id, basin],
      );
      assert.equal(units.rows.length, 1, 'the basin is used once');
    });

    test('concurrent visits of one staff member for both parts at overlapping times: the winners never overlap', async () => {
      const { a, b, db } = two();
      const s = await createSalon(a);
      const { slug } = s.business;
      const cut = await createService(a, slug, s.location.slug, { name: 'Cut', bufferAfterMinutes: 5 });
      const colour = await createService(a, slug, s.location.slug, { name: 'Colour', durationMinutes: 45, bufferBeforeMinutes: 10 });
      const stylist = (await createStaff(a, slug, s.location.slug, { name: 'Solo', serviceIds: [cut.id, colour.id] })).id;
      // starts 15 minutes apart: each visit's cut meets the previous one's colour or cut
      const starts = ['10:00', '10:15', '10:30', '10:45', '11:00', '11:15'];
      const answers = await Promise.all(
        starts.map((startTime, i) =>
          api(i % 2 ? b : a, s.key.secret, 'POST', '/bookings', {
            salonSlug: slug,
            locationSlug: s.location.slug,
            consent: CONSENT,
            visit: [
              { serviceId: cut.id, staffId: stylist },
              { serviceId: colour.id, staffId: stylist },
            ],
            slot: { date: DATE, startTime },
            guest: { name: `Visit ${i}`, phone: `+3630${String(5000000 + i)}` },
          }),
        ),
      );
      const won = answers.filter((r) => r.status === 201);
      assert.ok(won.length >= 1, answers.map((r) => r.raw).join('\n'));
      for (const r of answers.filter((x) => x.status !== 201)) assert.equal(r.status, 409, r.raw);
      const rows = await db.query<{ visit_id: string; n: number }>(
        `SELECT visit_id, count(*)::int AS n FROM bookings WHERE business_id = $1 GROUP BY visit_id`,
        [s.business.id],
      );
      assert.deepEqual(
        rows.rows.map((r) => r.n),
        won.map(() => 2),
        'every visit whole',
      );
      const overlapping = await db.query(
        `SELECT 1 FROM bookings x JOIN bookings y ON x.id < y.id AND x.occupied && y.occupied
          WHERE x.business_id = $1 AND y.business_id = $1`,
        [s.business.id],
      );
      assert.equal(overlapping.rows.length, 0, 'no two parts share the stylist’s time, buffers included');
    });
  });
