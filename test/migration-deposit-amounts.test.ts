/**
 * Migration 015 mends deposits from before "a deposit always has an amount" (guest-side.md): on a
 * database at 014 with old-shaped rows, a deposit booking without an amount gets its service's
 * amount or full price; a service with neither stops taking deposits, and its bookings' pending
 * deposits (no sum to pay) end while recorded ones keep their record; and the checks it adds keep
 * new rows that way.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Db } from '../src/store/db.ts';
import { migrate } from '../src/store/migrate.ts';
import { MIGRATIONS } from '../src/store/migrations/index.ts';
import { PgliteDb } from '../src/store/pglite-db.ts';
import { openScratchPostgres } from './helpers/isolated-databases.ts';

const targets: Array<{ name: string; open: () => Promise<Db> }> = [{ name: 'pglite', open: () => PgliteDb.open('memory://') }];
if (process.env.DATABASE_URL) {
  const url = process.env.DATABASE_URL;
  targets.push({ name: 'postgres', open: () => openScratchPostgres(url, { migrate: false }) });
}

/** Every migration up to and including 014, recorded as migrate() records them. */
async function migrateTo014(db: Db): Promise<void> {
  const upTo = MIGRATIONS.findIndex((m) => m.name === '014-guest-settings');
  assert.ok(upTo > 0);
  await db.exec('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  for (const m of MIGRATIONS.slice(0, upTo + 1)) {
    await db.exec(m.sql);
    await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
  }
}

/** A service as the API let one be saved before 015: deposit required, maybe no amount. */
async function oldService(db: Db, id: string, priceType: string, priceMinor: number | null, depositAmountMinor: number | null) {
  await db.query(
    `INSERT INTO services (id, business_id, location_id, name, duration_minutes, price_type, price_minor, request_acceptance_policy,
                           deposit_required, deposit_terms_version, deposit_amount_minor, pricing_version)
     VALUES ($1, 'biz_old', 'loc_old', $1, 30, $2, $3, 'manual', true, 'v1', $4, 'pv')`,
    [id, priceType, priceMinor, depositAmountMinor],
  );
}

let bookingNumber = 0;
async function oldBooking(db: Db, serviceId: string, depositStatus: string | null): Promise<string> {
  bookingNumber += 1;
  const id = `bkg_old_${bookingNumber}`;
  const start = new Date(Date.UTC(2031, 0, bookingNumber, 10));
  const end = new Date(start.getTime() + 30 * 60_000);
  await db.query(
    `INSERT INTO bookings (id, business_id, location_id, service_id, public_reference, status, state_version, acceptance_mode,
                           service_name, location_snapshot, timezone, start_at, end_at, slot_date, slot_start_time, slot_end_time,
                           occupied, guest_name, guest_phone, deposit_terms, created_at, updated_at,
                           deposit_status, deposit_amount_minor, deposit_currency, deposit_due_at, deposit_recorded_at)
     VALUES ($1, 'biz_old', 'loc_old', $2, $3, 'requested', 1, 'manual', 'Old', '{}'::jsonb, 'Europe/Budapest', $4, $5,
             $4::timestamptz::date, '10:00', '10:30', tstzrange($4, $5), 'Guest', '+36301234567',
             '{"termsVersion":"v1"}'::jsonb, now(), now(),
             $6, NULL, CASE WHEN $6::text IS NULL THEN NULL ELSE 'HUF' END, CASE WHEN $6::text IS NULL THEN NULL ELSE $4::timestamptz END,
             CASE WHEN $6::text IN ('paid', 'waived') THEN now() END)`,
    [id, serviceId, `BK-OLD${String(bookingNumber).padStart(4, '0')}`, start, end, depositStatus],
  );
  return id;
}

for (const target of targets) {
  describe(`migration 015: every deposit has an amount [${target.name}]`, () => {
    test('old rows are mended, and the checks keep new ones so', async () => {
      const db = await target.open();
      try {
        await migrateTo014(db);
        await db.query("INSERT INTO businesses (id, slug, name, currency) VALUES ('biz_old', 'old-salon', 'Old', 'HUF')");
        await db.query(
          `INSERT INTO locations (id, business_id, slug, name, public_location_name, timezone, city, street, zip)
           VALUES ('loc_old', 'biz_old', 'main', 'Main', 'Main', 'Europe/Budapest', 'Budapest', 'Fő utca 1', '1011')`,
        );
        await oldService(db, 'svc_amount', 'fixed', 5000, 1500); // names its amount
        await oldService(db, 'svc_fixed', 'fixed', 8000, null); // no amount: its price
        await oldService(db, 'svc_from', 'from', 6000, null); // no amount: its from price
        await oldService(db, 'svc_free', 'fixed', 0, null); // neither: a price of 0 is no deposit
        await oldService(db, 'svc_nego', 'negotiable', null, null); // neither
        const withAmount = await oldBooking(db, 'svc_amount', 'pending');
        const fixed = await oldBooking(db, 'svc_fixed', 'pending');
        const fixedPaid = await oldBooking(db, 'svc_fixed', 'paid');
        const from = await oldBooking(db, 'svc_from', 'waived');
        const negoPending = await oldBooking(db, 'svc_nego', 'pending');
        const negoPaid = await oldBooking(db, 'svc_nego', 'paid');
        const freePending = await oldBooking(db, 'svc_free', 'pending');
        const noDeposit = await oldBooking(db, 'svc_fixed', null);
        // The booking of svc_amount kept an old amount of its own: never overwritten.
        await db.query('UPDATE bookings SET deposit_amount_minor = 1200 WHERE id = $1', [withAmount]);

        const applied = await migrate(db);
        assert.equal(applied[0], '015-deposit-amounts');

        const services = Object.fromEntries(
          (
            await db.query<{
              id: string;
              deposit_required: boolean;
              deposit_terms_version: string | null;
              deposit_amount_minor: string | null;
            }>('SELECT id, deposit_required, deposit_terms_version, deposit_amount_minor FROM services')
          ).rows.map((r) => [
            r.id,
            [r.deposit_required, r.deposit_terms_version, r.deposit_amount_minor === null ? null : Number(r.deposit_amount_minor)],
          ]),
        );
        assert.deepEqual(services, {
          svc_amount: [true, 'v1', 1500],
          svc_fixed: [true, 'v1', null], // its deposit follows its price, as a new service's does
          svc_from: [true, 'v1', null],
          svc_free: [false, null, null],
          svc_nego: [false, null, null],
        });

        const bookings = Object.fromEntries(
          (
            await db.query<{ id: string; deposit_status: string | null; deposit_amount_minor: string | null; deposit_terms: unknown }>(
              'SELECT id, deposit_status, deposit_amount_minor, deposit_terms FROM bookings',
            )
          ).rows.map((r) => [r.id, [r.deposit_status, r.deposit_amount_minor === null ? null : Number(r.deposit_amount_minor)]]),
        );
        assert.deepEqual(bookings, {
          [withAmount]: ['pending', 1200],
          [fixed]: ['pending', 8000],
          [fixedPaid]: ['paid', 8000],
          [from]: ['waived', 6000],
          [negoPending]: [null, null],
          [negoPaid]: ['paid', null],
          [freePending]: [null, null],
          [noDeposit]: [null, null],
        });
        const [terms] = (await db.query<{ deposit_terms: unknown }>('SELECT deposit_terms FROM bookings WHERE id = $1', [negoPending]))
          .rows;
        assert.deepEqual(terms!.deposit_terms, { termsVersion: 'v1' }, 'the terms the guest accepted stay');

        // From now on the database refuses what the API refuses.
        await assert.rejects(oldService(db, 'svc_new', 'negotiable', null, null), /services_deposit_has_amount/);
        await assert.rejects(db.query("UPDATE services SET price_minor = 0 WHERE id = 'svc_fixed'"), /services_deposit_has_amount/);
        await assert.rejects(
          db.query('UPDATE bookings SET deposit_amount_minor = NULL WHERE id = $1', [withAmount]),
          /bookings_pending_deposit_has_amount/,
        );
      } finally {
        await db.close();
      }
    });
  });
}
