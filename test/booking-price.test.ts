/**
 * A booking keeps the price it was made at (salon-scheduling.md, "Stylist variants"): every create
 * path (POST /v1/bookings, a group seat, the business's manual booking) records it, operator reads
 * show it as `price { amount, currency }`, a later change of the service's price leaves it, and
 * migration 025 gives bookings made before it their service's price.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql as kysql } from 'kysely';
import type { Db } from '../src/store/db.ts';
import { migrate } from '../src/store/migrate.ts';
import { MIGRATIONS } from '../src/store/migrations/index.ts';
import { PgliteDb } from '../src/store/pglite-db.ts';
import { queryBuilder, runCompiled, selectList } from '../src/store/sql-builder.ts';
import { dbTargets } from './helpers/databases.ts';
import { admin, adminOk, type Harness } from './helpers/harness.ts';
import { api, createSalon, createService, createStaff, type SalonFixture } from './helpers/fixtures.ts';
import { openScratchPostgres } from './helpers/isolated-databases.ts';
import { bookingHarness, createBooking, createOk, day, getBooking, sql } from './helpers/bookings.ts';

async function operatorPrice(h: Harness, bookingId: string): Promise<unknown> {
  const one = await adminOk(h.app, 'GET', `/bookings/${bookingId}`);
  return one.booking.price;
}

async function listedPrice(h: Harness, salon: SalonFixture, bookingId: string): Promise<unknown> {
  const list = await adminOk(h.app, 'GET', `/businesses/${salon.business.slug}/bookings?limit=100`);
  return list.bookings.find((b: any) => b.bookingId === bookingId).price;
}

async function priceRow(h: Harness, bookingId: string) {
  const [row] = await sql(h, 'SELECT price_type, price_minor, price_currency FROM bookings WHERE id = $1', [bookingId]);
  return row;
}

for (const target of dbTargets()) {
  describe(`booking price snapshot [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await bookingHarness(target);
    });
    after(() => h.close());

    test('POST /v1/bookings keeps the price it was made at; a later price change reaches only new bookings', async () => {
      const salon = await createSalon(h.app);
      const first = await createOk(h, salon, { startTime: '10:00' });
      assert.deepEqual(await operatorPrice(h, first.bookingId), { amount: 5000, currency: 'HUF' });

      const changed = await adminOk(h.app, 'PATCH', `/services/${salon.service.id}`, { price: { amount: 6500, currency: 'HUF' } });
      const second = await createOk(h, salon, { startTime: '11:00', service: changed.service });

      assert.deepEqual(await operatorPrice(h, first.bookingId), { amount: 5000, currency: 'HUF' });
      assert.deepEqual(await listedPrice(h, salon, first.bookingId), { amount: 5000, currency: 'HUF' });
      assert.deepEqual(await operatorPrice(h, second.bookingId), { amount: 6500, currency: 'HUF' });
      assert.deepEqual(await priceRow(h, first.bookingId), { price_type: 'fixed', price_minor: 5000, price_currency: 'HUF' });

      // the public read is unchanged: no price
      const pub = await getBooking(h, salon, first.bookingId);
      assert.equal(pub.status, 200, pub.raw);
      assert.ok(!('price' in pub.body.data.booking), pub.raw);
    });

    test('minor units in a two-decimal currency; a `from` price keeps its type; negotiable reads null', async () => {
      const salon = await createSalon(h.app, { currency: 'EUR' });
      const from = await createOk(h, salon, { service: salon.manualService, startTime: '10:00' });
      assert.deepEqual(await operatorPrice(h, from.bookingId), { amount: 120, currency: 'EUR' });
      assert.deepEqual(await priceRow(h, from.bookingId), { price_type: 'from', price_minor: 12000, price_currency: 'EUR' });

      const negotiable = await createService(
        h.app,
        salon.business.slug,
        salon.location.slug,
        { name: 'Consultation', priceType: 'negotiable', price: null },
        'EUR',
      );
      const staff = await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds: [negotiable.id] });
      const b = await createOk(h, salon, { service: negotiable, staffId: staff.id, startTime: '12:00' });
      assert.equal(await operatorPrice(h, b.bookingId), null);
      assert.deepEqual(await priceRow(h, b.bookingId), { price_type: 'negotiable', price_minor: null, price_currency: 'EUR' });
    });

    test("a manual booking records the service's price; its answer shows it", async () => {
      const salon = await createSalon(h.app);
      const r = await admin(h.app, 'POST', `/businesses/${salon.business.slug}/bookings`, {
        locationSlug: salon.location.slug,
        serviceId: salon.manualService.id,
        staffId: salon.staff[0]!.id,
        date: day(3),
        startTime: '10:00',
        guest: { name: 'Walk-in', phone: '+36301112233' },
      });
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual(r.body.data.booking.price, { amount: 12000, currency: 'HUF' });
      await adminOk(h.app, 'PATCH', `/services/${salon.manualService.id}`, { price: { amount: 15000, currency: 'HUF' } });
      assert.deepEqual(await operatorPrice(h, r.body.data.booking.bookingId), { amount: 12000, currency: 'HUF' });
    });

    test("a group seat costs its session's seat price when the session has one, else the service's", async () => {
      const salon = await createSalon(h.app);
      const yoga = await createService(h.app, salon.business.slug, salon.location.slug, {
        name: 'Jóga',
        durationMinutes: 60,
        bookingMode: 'groupSession',
      });
      const staff = await createStaff(h.app, salon.business.slug, salon.location.slug, { name: 'Cili', serviceIds: [yoga.id] });
      const priced = await adminOk(h.app, 'POST', `/services/${yoga.id}/sessions`, {
        staffId: staff.id,
        startAtUtc: `${day(2)}T08:00:00.000Z`,
        endAtUtc: `${day(2)}T09:00:00.000Z`,
        capacityMax: 3,
        priceMinor: 3900,
      });
      const plain = await adminOk(h.app, 'POST', `/services/${yoga.id}/sessions`, {
        staffId: staff.id,
        startAtUtc: `${day(2)}T10:00:00.000Z`,
        endAtUtc: `${day(2)}T11:00:00.000Z`,
        capacityMax: 3,
      });
      const search = await api(h.app, salon.key.secret, 'POST', '/availability/search', {
        salonSlug: salon.business.slug,
        locationSlug: salon.location.slug,
        serviceId: yoga.id,
        dateRange: { from: day(2), to: day(2) },
      });
      assert.equal(search.status, 200, search.raw);
      const tokens = new Map<string, string>(search.body.data.slots.map((s: any) => [s.sessionId, s.slotToken]));
      const seat = async (sessionId: string) => {
        const r = await createBooking(h, salon, {
          service: yoga,
          staffId: undefined,
          slot: undefined,
          sessionId,
          slotToken: tokens.get(sessionId),
        });
        assert.equal(r.status, 201, r.raw);
        return r.body.data.booking.bookingId as string;
      };
      const inPriced = await seat(priced.session.id);
      const inPlain = await seat(plain.session.id);
      assert.deepEqual(await operatorPrice(h, inPriced), { amount: 3900, currency: 'HUF' });
      assert.deepEqual(await priceRow(h, inPriced), { price_type: 'fixed', price_minor: 3900, price_currency: 'HUF' });
      assert.deepEqual(await operatorPrice(h, inPlain), { amount: 5000, currency: 'HUF' });
    });

    test('a booking whose price was never recorded reads null', async () => {
      const salon = await createSalon(h.app);
      const b = await createOk(h, salon, { startTime: '15:00' });
      await sql(h, 'UPDATE bookings SET price_type = NULL, price_minor = NULL, price_currency = NULL WHERE id = $1', [b.bookingId]);
      assert.equal(await operatorPrice(h, b.bookingId), null);
      await assert.rejects(
        sql(h, "UPDATE bookings SET price_type = 'fixed' WHERE id = $1", [b.bookingId]),
        /bookings_price_whole/,
        'a price type without its currency is refused',
      );
    });

    test('the sql builder: a compiled insert from a named row runs inside our transaction and rolls back with it', async () => {
      const qb = queryBuilder<{ t: { a: number; b: string | null; r: unknown } }>();
      await h.db.exec('CREATE TEMP TABLE IF NOT EXISTS t (a int, b text, r int4range)');
      const row = { a: 7, b: null, r: kysql`int4range(${1}, ${5})` };
      const insert = qb
        .insertInto('t')
        .columns(['a', 'b', 'r'])
        .expression(qb.selectNoFrom(selectList(row)))
        .returning(['a', 'b']);
      await assert.rejects(
        h.db.transaction(async (tx) => {
          const r = await runCompiled(tx, insert);
          assert.deepEqual(r.rows, [{ a: 7, b: null }]);
          throw new Error('roll back');
        }),
        /roll back/,
      );
      const left = await runCompiled(h.db, qb.selectFrom('t').select(['a', kysql<boolean>`r @> 4`.as('in')]));
      assert.deepEqual(left.rows, []);
      const kept = await runCompiled(h.db, insert);
      assert.deepEqual(kept.rows, [{ a: 7, b: null }]);
      await h.db.exec('DROP TABLE t');
    });
  });
}

const migrationTargets: Array<{ name: string; open: () => Promise<Db> }> = [{ name: 'pglite', open: () => PgliteDb.open('memory://') }];
if (process.env.DATABASE_URL) {
  const url = process.env.DATABASE_URL;
  migrationTargets.push({ name: 'postgres', open: () => openScratchPostgres(url, { migrate: false }) });
}
const BEFORE = MIGRATIONS.findIndex((m) => m.name === '025-booking-price');

/** A booking row as the code before 025 wrote it. */
function insertOldBooking(db: Db, id: string, serviceId: string, sessionId: string | null, staffId: string | null, hour: number) {
  const at = (h: number) => `2031-12-01T${String(h).padStart(2, '0')}:00:00Z`;
  return db.query(
    `INSERT INTO bookings (id, business_id, location_id, service_id, session_id, staff_id, public_reference, status, state_version,
        acceptance_mode, service_name, location_snapshot, timezone, start_at, end_at, slot_date, slot_start_time, slot_end_time,
        occupied, guest_name, guest_phone, source, created_at, updated_at)
     VALUES ($1, 'biz_p', 'loc_p', $2, $3, $4, $5, 'confirmed', 1, 'manual', 'Cut', '{}', 'Europe/Budapest', $6, $7, '2031-12-01',
        '10:00', '11:00', tstzrange($6, $7, '[)'), 'Guest', '+36301112233', 'manual', now(), now())`,
    [id, serviceId, sessionId, staffId, `BK-${id.slice(-8).toUpperCase()}`, at(hour), at(hour + 1)],
  );
}

for (const target of migrationTargets) {
  describe(`migration 025: existing bookings get their service's price [${target.name}]`, () => {
    test("the service's price now, a session's seat price for its seats, the business's currency", async () => {
      const db = await target.open();
      try {
        assert.ok(BEFORE > 0);
        await db.exec('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
        for (const m of MIGRATIONS.slice(0, BEFORE)) {
          await db.exec(m.sql);
          await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
        }
        await db.query("INSERT INTO businesses (id, slug, name, currency) VALUES ('biz_p', 'biz-p', 'Salon', 'EUR')");
        await db.query(
          `INSERT INTO locations (id, business_id, slug, name, public_location_name, timezone, city, street, zip)
           VALUES ('loc_p', 'biz_p', 'downtown', 'Downtown', 'Downtown', 'Europe/Budapest', 'Budapest', 'Fő utca 1.', '1011')`,
        );
        await db.query(
          `INSERT INTO services (id, business_id, location_id, name, duration_minutes, price_type, price_minor, request_acceptance_policy,
              booking_mode, pricing_version)
           VALUES ('svc_cut', 'biz_p', 'loc_p', 'Cut', 60, 'from', 4500, 'manual', 'standard', 'pv1'),
                  ('svc_talk', 'biz_p', 'loc_p', 'Talk', 60, 'negotiable', NULL, 'manual', 'standard', 'pv2'),
                  ('svc_yoga', 'biz_p', 'loc_p', 'Yoga', 60, 'fixed', 2000, 'automatic', 'groupSession', 'pv3')`,
        );
        await db.query("INSERT INTO staff (id, business_id, location_id, name) VALUES ('stf_p', 'biz_p', 'loc_p', 'Anna')");
        await db.query(
          `INSERT INTO group_sessions (id, business_id, service_id, staff_id, start_at, end_at, capacity_max, seats_taken, price_minor)
           VALUES ('ses_priced', 'biz_p', 'svc_yoga', 'stf_p', '2031-12-01T12:00:00Z', '2031-12-01T13:00:00Z', 5, 1, 1500),
                  ('ses_plain', 'biz_p', 'svc_yoga', 'stf_p', '2031-12-01T14:00:00Z', '2031-12-01T15:00:00Z', 5, 1, NULL)`,
        );
        await insertOldBooking(db, 'bkg_cut00001', 'svc_cut', null, null, 8);
        await insertOldBooking(db, 'bkg_talk0001', 'svc_talk', null, null, 9);
        await insertOldBooking(db, 'bkg_seat0001', 'svc_yoga', 'ses_priced', 'stf_p', 12);
        await insertOldBooking(db, 'bkg_seat0002', 'svc_yoga', 'ses_plain', 'stf_p', 14);

        const applied = await migrate(db);
        assert.ok(applied.includes('025-booking-price'), String(applied));
        const rows = await db.query('SELECT id, price_type, price_minor, price_currency FROM bookings ORDER BY id');
        assert.deepEqual(rows.rows, [
          { id: 'bkg_cut00001', price_type: 'from', price_minor: 4500, price_currency: 'EUR' },
          { id: 'bkg_seat0001', price_type: 'fixed', price_minor: 1500, price_currency: 'EUR' },
          { id: 'bkg_seat0002', price_type: 'fixed', price_minor: 2000, price_currency: 'EUR' },
          { id: 'bkg_talk0001', price_type: 'negotiable', price_minor: null, price_currency: 'EUR' },
        ]);
      } finally {
        await db.close();
      }
    });
  });
}
