/**
 * Retention (clients-and-reports.md "Retention"): `clientRetentionMonths` on PATCH
 * /businesses/{slug} (12 to 120 or null; owners and managers), and the daily run erasing the clients
 * with no booking (by start or creation) in that many months, as a member's erase would; a business
 * without retention keeps its clients, and the run through the job handler does the same.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clientRetentionHandler } from '../src/jobs/handlers/client-retention.ts';
import { eraseExpiredClients } from '../src/use-cases/clients/retention.ts';
import { bookingHarness, sql } from './helpers/bookings.ts';
import { dbTargets } from './helpers/databases.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { asMember, memberCookie } from './helpers/members.ts';

for (const target of dbTargets()) {
  describe(`client retention [${target.name}]`, () => {
    let h: Harness;
    let keeping: SalonFixture;
    let forgetting: SalonFixture;
    before(async () => {
      h = await bookingHarness(target);
      keeping = await createSalon(h.app);
      forgetting = await createSalon(h.app);
    });
    after(() => h.close());

    /** A manual booking at `date` (the front desk may book the past), answering its client. */
    const client = async (salon: SalonFixture, name: string, phone: string, date: string): Promise<string> => {
      const b = await adminOk(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        staffId: salon.staff[0]!.id,
        date,
        startTime: '10:00',
        guest: { name, phone },
      });
      // made back then, as a salon's history is (the API writes today's time)
      await h.db.query('UPDATE bookings SET created_at = start_at WHERE id = $1', [b.booking.bookingId]);
      return b.booking.clientId;
    };

    test('the setting: 12 to 120 months or null, by owners and managers', async () => {
      const slug = forgetting.business.slug;
      assert.equal((await adminOk(h.app, 'GET', `/businesses/${slug}`)).business.clientRetentionMonths, null);
      for (const bad of [11, 121, 24.5, '24']) {
        const r = await admin(h.app, 'PATCH', `/businesses/${slug}`, { clientRetentionMonths: bad });
        assert.equal(r.status, 400, r.raw);
        assert.equal(r.body.error.code, 'request.validation_failed');
      }
      const desk = (await memberCookie(h.app, h.db, forgetting.business.id, 'frontDesk')).cookie;
      const refused = await asMember(h.app, desk, 'PATCH', `/businesses/${slug}`, { clientRetentionMonths: 24 });
      assert.equal(refused.status, 403, refused.raw);
      const manager = (await memberCookie(h.app, h.db, forgetting.business.id, 'manager')).cookie;
      const set = await asMember(h.app, manager, 'PATCH', `/businesses/${slug}`, { clientRetentionMonths: 24 });
      assert.equal(set.status, 200, set.raw);
      assert.equal(set.body.data.business.clientRetentionMonths, 24);
      assert.equal((await adminOk(h.app, 'PATCH', `/businesses/${slug}`, {})).business.clientRetentionMonths, 24, 'left out: kept');
    });

    test('the daily run erases clients with no booking in that many months, and nothing else', async () => {
      // the harness's today is 2031-06-01; 24 months back is 2029-06-01
      const old = await client(forgetting, 'Régi Rita', '+36301110001', '2029-03-01');
      const recent = await client(forgetting, 'Friss Frida', '+36301110002', '2030-01-10');
      const oldButBack = await client(forgetting, 'Visszatérő Vera', '+36301110003', '2028-01-10');
      await client(forgetting, 'Visszatérő Vera', '+36301110003', '2031-06-20');
      const elsewhere = await client(keeping, 'Régi Rita', '+36301110001', '2029-03-01');

      assert.equal(await eraseExpiredClients(h.db, h.clock.now), 1);
      const read = async (id: string) => (await adminOk(h.app, 'GET', `/clients/${id}`)).client;
      assert.equal((await read(old)).erased, true);
      assert.equal((await read(old)).name, 'Erased client');
      for (const id of [recent, oldButBack, elsewhere]) assert.equal((await read(id)).erased, false, id);
      const rows = await sql(h, 'SELECT guest_name, guest_phone FROM bookings WHERE client_id = $1', [old]);
      assert.deepEqual(rows, [{ guest_name: 'Erased client', guest_phone: '' }]);

      // a month later Frida's 2030-01-10 is still within 24 months; the handler's run finds nothing new
      const later = new Date('2031-07-01T00:00:00Z');
      await clientRetentionHandler({ db: h.db, clock: () => later }).run({} as never);
      assert.equal((await read(recent)).erased, false);
      // and two years on, it is not
      assert.equal(await eraseExpiredClients(h.db, new Date('2032-02-01T00:00:00Z')), 1);
      assert.equal((await read(recent)).erased, true);
      assert.equal((await read(elsewhere)).erased, false, 'a business without retention keeps its clients');
    });
  });
}
