/**
 * Holds across instances (issue 24, "Done when"): two app instances on one PostgreSQL and Redis.
 * A 20-way race of POST /v1/holds on one time gives one 201; a held time appears in no search of
 * either instance (their cached answers included) and no create can take it; once the hold has
 * ended it is free again, also in an answer the other instance kept while it was held.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { App } from '../src/http/context.ts';
import { api, createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { CONSENT } from './helpers/bookings.ts';
import { useTwoInstances } from './helpers/two-instances.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const DATE = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);

const holdBody = (s: SalonFixture, startTime: string, staffId?: string) => ({
  salonSlug: s.business.slug,
  locationSlug: s.location.slug,
  serviceId: s.service.id,
  ...(staffId ? { staffId } : {}),
  slot: { date: DATE, startTime },
});

async function offered(app: App, s: SalonFixture, startTime: string): Promise<string[]> {
  const r = await api(app, s.key.secret, 'POST', '/availability/search', {
    salonSlug: s.business.slug,
    locationSlug: s.location.slug,
    serviceId: s.service.id,
    dateRange: { from: DATE, to: DATE },
  });
  assert.equal(r.status, 200, r.raw);
  return r.body.data.slots
    .filter((x: any) => x.startTime === startTime)
    .map((x: any) => x.staffId)
    .sort();
}

const SUITE = 'holds across two instances on one PostgreSQL and Redis';
if (!(DATABASE_URL && REDIS_URL)) test(SUITE, { skip: 'needs DATABASE_URL and REDIS_URL' }, () => {});
else
  describe(SUITE, { timeout: 120_000 }, () => {
    const two = useTwoInstances(DATABASE_URL, REDIS_URL, 'holds');

    test('20 concurrent holds of one staff member and time: one 201, nineteen 409', async () => {
      const { a, b } = two();
      const s = await createSalon(a);
      const anna = s.staff[0]!.id;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => api(i % 2 ? b : a, s.key.secret, 'POST', '/holds', holdBody(s, '10:00', anna))),
      );
      const statuses = answers.map((r) => r.status).sort();
      assert.deepEqual(statuses, [201, ...Array(19).fill(409)], answers.map((r) => r.raw).join('\n'));
      for (const r of answers.filter((x) => x.status === 409)) assert.equal(r.body.error.code, 'booking.slot_unavailable');
    });

    test('20 concurrent holds without a staff member on a time two can take: two 201, each a different one', async () => {
      const { a, b } = two();
      const s = await createSalon(a);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => api(i % 2 ? b : a, s.key.secret, 'POST', '/holds', holdBody(s, '11:00'))),
      );
      const won = answers.filter((r) => r.status === 201);
      assert.equal(won.length, 2, answers.map((r) => r.raw).join('\n'));
      assert.deepEqual(won.map((r) => r.body.data.hold.staffId).sort(), s.staff.map((x) => x.id).sort());
      assert.ok(answers.every((r) => r.status === 201 || r.body.error?.code === 'booking.slot_unavailable'));
    });

    test('a held time is offered by neither instance, taken by no create, and free again once the hold ended', async () => {
      const { a, b, db } = two();
      const s = await createSalon(a);
      const anna = s.staff[0]!.id;
      const both = s.staff.map((x) => x.id).sort();
      // b keeps an answer in which Anna is free at 14:00.
      assert.deepEqual(await offered(b, s, '14:00'), both);
      assert.deepEqual(await offered(b, s, '14:00'), both);
      const r = await api(a, s.key.secret, 'POST', '/holds', holdBody(s, '14:00', anna));
      assert.equal(r.status, 201, r.raw);
      const holdId = r.body.data.hold.holdId;
      const others = both.filter((id) => id !== anna);
      // The hold's commit moved the occupancy version; b learns it through Redis before answering.
      const deadline = Date.now() + 5000;
      while ((await offered(b, s, '14:00')).includes(anna)) {
        assert.ok(Date.now() < deadline, 'b still offers the held time');
        await new Promise((res) => setTimeout(res, 50));
      }
      assert.deepEqual(await offered(a, s, '14:00'), others);
      const create = await api(b, s.key.secret, 'POST', '/bookings', {
        salonSlug: s.business.slug,
        locationSlug: s.location.slug,
        serviceId: s.service.id,
        staffId: anna,
        slot: { date: DATE, startTime: '14:00' },
        guest: { name: 'Kiss Éva', phone: '+36301234567' },
        consent: CONSENT,
      });
      assert.equal(create.status, 409, create.raw);

      // The hold ends two seconds from now (what holdMinutes does, shortened), with no write after.
      // The update moves the occupancy version too, so b reads the new expiry into a kept answer.
      await db.query(`UPDATE holds SET expires_at = now() + interval '2 seconds' WHERE id = $1`, [holdId]);
      assert.deepEqual(await offered(b, s, '14:00'), others, 'b keeps an answer with the live hold');
      assert.deepEqual(await offered(b, s, '14:00'), others);
      await new Promise((res) => setTimeout(res, 2500));
      assert.deepEqual(await offered(b, s, '14:00'), both, 'b drops the kept answer once the hold has ended');
      assert.deepEqual(await offered(a, s, '14:00'), both);
      const after = await api(b, s.key.secret, 'POST', '/bookings', {
        salonSlug: s.business.slug,
        locationSlug: s.location.slug,
        serviceId: s.service.id,
        staffId: anna,
        slot: { date: DATE, startTime: '14:00' },
        guest: { name: 'Kiss Éva', phone: '+36301234567' },
        consent: CONSENT,
        holdId,
      });
      assert.equal(after.status, 409, after.raw);
      assert.equal(after.body.error.code, 'booking.hold_expired');
    });
  });
