/**
 * Migration 016 gives every booking its source: a database before it with bookings of each kind
 * (an owner key's, a guest_partner key's, a manual one) reads api, api, manual after it; the
 * default used to fill the column is gone, so an insert that names no source fails.
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

const BEFORE = MIGRATIONS.findIndex((m) => m.name === '016-booking-source');

/** The migrations before 016, recorded as migrate() records them. */
async function migrateToBefore016(db: Db): Promise<void> {
  await db.exec('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  for (const m of MIGRATIONS.slice(0, BEFORE)) {
    await db.exec(m.sql);
    await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
  }
}

const CONSENT = JSON.stringify({
  privacyNoticeVersion: 'pn-1',
  termsVersion: 'tos-1',
  locale: 'hu-HU',
  acceptedAt: '2026-11-01T10:00:00Z',
  policyConsentGiven: true,
});

/** A booking row as the code before 016 wrote it (no staff: the row needs no calendar). */
function insertOldBooking(db: Db, id: string, consent: string | null, apiSourceKeyId: string | null) {
  return db.query(
    `INSERT INTO bookings (id, business_id, location_id, service_id, public_reference, status, state_version, acceptance_mode,
        service_name, location_snapshot, timezone, start_at, end_at, slot_date, slot_start_time, slot_end_time, occupied,
        guest_name, guest_phone, consent, api_source_key_id, created_at, updated_at)
     VALUES ($1, 'biz_m', 'loc_m', 'svc_m', $2, 'confirmed', 1, 'manual', 'Cut', '{}', 'Europe/Budapest',
        '2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z', '2026-12-01', '10:00', '11:00',
        tstzrange('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z', '[)'), 'Guest', '+36301112233', $3, $4, now(), now())`,
    [id, `BK-${id.slice(-8).toUpperCase()}`, consent, apiSourceKeyId],
  );
}

for (const target of targets) {
  describe(`migration 016: booking source backfilled [${target.name}]`, () => {
    test('consent or a partner key: api; neither: manual; no member; the default is gone', async () => {
      const db = await target.open();
      try {
        assert.ok(BEFORE > 0);
        await migrateToBefore016(db);
        await db.query("INSERT INTO businesses (id, slug, name, currency) VALUES ('biz_m', 'biz-m', 'Salon', 'HUF')");
        await db.query(
          `INSERT INTO locations (id, business_id, slug, name, public_location_name, timezone, city, street, zip)
           VALUES ('loc_m', 'biz_m', 'downtown', 'Downtown', 'Downtown', 'Europe/Budapest', 'Budapest', 'Fő utca 1.', '1011')`,
        );
        await db.query(
          `INSERT INTO services (id, business_id, location_id, name, duration_minutes, price_type, request_acceptance_policy, pricing_version)
           VALUES ('svc_m', 'biz_m', 'loc_m', 'Cut', 60, 'fixed', 'manual', 'pv1')`,
        );
        await insertOldBooking(db, 'bkg_ownerkey', CONSENT, null);
        await insertOldBooking(db, 'bkg_partnerk', CONSENT, 'key_partner');
        await insertOldBooking(db, 'bkg_manualbk', null, null);

        assert.deepEqual(
          await migrate(db),
          MIGRATIONS.slice(BEFORE).map((m) => m.name),
        );
        const rows = await db.query('SELECT id, source, source_member_id, api_source_key_id FROM bookings ORDER BY id');
        assert.deepEqual(rows.rows, [
          { id: 'bkg_manualbk', source: 'manual', source_member_id: null, api_source_key_id: null },
          { id: 'bkg_ownerkey', source: 'api', source_member_id: null, api_source_key_id: null },
          { id: 'bkg_partnerk', source: 'api', source_member_id: null, api_source_key_id: 'key_partner' },
        ]);
        const col = await db.query<{ column_default: string | null; is_nullable: string }>(
          "SELECT column_default, is_nullable FROM information_schema.columns WHERE table_name = 'bookings' AND column_name = 'source'",
        );
        assert.deepEqual(col.rows, [{ column_default: null, is_nullable: 'NO' }]);
        await assert.rejects(insertOldBooking(db, 'bkg_nosource', CONSENT, null), /null value|not-null/);
        await assert.rejects(db.query("UPDATE bookings SET source = 'phone' WHERE id = 'bkg_manualbk'"), /check constraint/);
        // a member is named only on a manual booking
        await db.query("INSERT INTO users (id, name) VALUES ('usr_m', 'Kata')");
        await db.query("UPDATE bookings SET source_member_id = 'usr_m' WHERE id = 'bkg_manualbk'");
        await assert.rejects(db.query("UPDATE bookings SET source_member_id = 'usr_m' WHERE id = 'bkg_ownerkey'"), /check constraint/);
      } finally {
        await db.close();
      }
    });
  });
}
