/**
 * Migration 033 links every existing booking to a client: oldest first, by phone, else by email,
 * else a new client named as that booking's guest (so a client keeps the name first seen), one
 * business's guests never another's. After it a booking cannot be without a client.
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

const BEFORE = MIGRATIONS.findIndex((m) => m.name === '033-clients');

async function migrateToBefore033(db: Db): Promise<void> {
  await db.exec('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  for (const m of MIGRATIONS.slice(0, BEFORE)) {
    await db.exec(m.sql);
    await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
  }
}

/** A booking row as the code before 033 wrote it, made at `createdAt`. */
function insertOldBooking(
  db: Db,
  b: { id: string; business: string; name: string; phone: string; email: string | null; createdAt: string },
) {
  return db.query(
    `INSERT INTO bookings (id, business_id, location_id, service_id, public_reference, status, state_version, acceptance_mode,
        service_name, location_snapshot, timezone, start_at, end_at, slot_date, slot_start_time, slot_end_time, occupied,
        guest_name, guest_phone, guest_email, source, created_at, updated_at)
     VALUES ($1, $2, 'loc_' || $2, 'svc_' || $2, $3, 'confirmed', 1, 'manual', 'Cut', '{}', 'Europe/Budapest',
        '2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z', '2026-12-01', '10:00', '11:00',
        tstzrange('2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z', '[)'), $4, $5, $6, 'manual', $7, $7)`,
    [b.id, b.business, `BK-${b.id.slice(-8).toUpperCase()}`, b.name, b.phone, b.email, b.createdAt],
  );
}

async function insertBusiness(db: Db, id: string): Promise<void> {
  await db.query("INSERT INTO businesses (id, slug, name, currency) VALUES ($1, $1, 'Salon', 'HUF')", [id]);
  await db.query(
    `INSERT INTO locations (id, business_id, slug, name, public_location_name, timezone, city, street, zip)
     VALUES ('loc_' || $1, $1, 'downtown', 'Downtown', 'Downtown', 'Europe/Budapest', 'Budapest', 'Fő utca 1.', '1011')`,
    [id],
  );
  await db.query(
    `INSERT INTO services (id, business_id, location_id, name, duration_minutes, price_type, request_acceptance_policy, pricing_version)
     VALUES ('svc_' || $1, $1, 'loc_' || $1, 'Cut', 60, 'fixed', 'manual', 'pv1')`,
    [id],
  );
}

for (const target of targets) {
  describe(`migration 033: bookings linked to clients [${target.name}]`, () => {
    test('oldest first: phone, else email, else new; per business; client_id required after', async () => {
      const db = await target.open();
      try {
        assert.ok(BEFORE > 0);
        await migrateToBefore033(db);
        await insertBusiness(db, 'biz_a');
        await insertBusiness(db, 'biz_b');
        // made out of id order: the earliest made names the client
        await insertOldBooking(db, {
          id: 'bkg_a2',
          business: 'biz_a',
          name: 'Éva K.',
          phone: '+36301112233',
          email: null,
          createdAt: '2026-10-02T10:00:00Z',
        });
        await insertOldBooking(db, {
          id: 'bkg_a1',
          business: 'biz_a',
          name: 'Kiss Éva',
          phone: '+36301112233',
          email: 'eva@example.com',
          createdAt: '2026-10-01T10:00:00Z',
        });
        await insertOldBooking(db, {
          id: 'bkg_a3',
          business: 'biz_a',
          name: 'Éva at work',
          phone: '+36309998877',
          email: 'EVA@example.com',
          createdAt: '2026-10-03T10:00:00Z',
        });
        await insertOldBooking(db, {
          id: 'bkg_a4',
          business: 'biz_a',
          name: 'Nagy Ödön',
          phone: '+36305554433',
          email: null,
          createdAt: '2026-10-04T10:00:00Z',
        });
        await insertOldBooking(db, {
          id: 'bkg_b1',
          business: 'biz_b',
          name: 'Éva elsewhere',
          phone: '+36301112233',
          email: null,
          createdAt: '2026-09-01T10:00:00Z',
        });

        assert.deepEqual(
          await migrate(db),
          MIGRATIONS.slice(BEFORE).map((m) => m.name),
        );
        const rows = (
          await db.query<{ id: string; client: string; name: string; business_id: string }>(
            'SELECT b.id, c.id AS client, c.name, c.business_id FROM bookings b JOIN clients c ON c.id = b.client_id ORDER BY b.id',
          )
        ).rows;
        const byId = new Map(rows.map((r) => [r.id, r]));
        assert.equal(rows.length, 5);
        const eva = byId.get('bkg_a1')!.client;
        assert.equal(byId.get('bkg_a2')!.client, eva, 'the same phone');
        assert.equal(byId.get('bkg_a3')!.client, eva, 'another phone, the same email');
        assert.equal(byId.get('bkg_a1')!.name, 'Kiss Éva', 'the name of the earliest booking');
        assert.notEqual(byId.get('bkg_a4')!.client, eva);
        assert.notEqual(byId.get('bkg_b1')!.client, eva, "another business's guest is its own client");
        assert.equal(byId.get('bkg_b1')!.business_id, 'biz_b');
        const clients = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM clients');
        assert.equal(clients.rows[0]!.n, 3);

        const col = await db.query<{ is_nullable: string }>(
          "SELECT is_nullable FROM information_schema.columns WHERE table_name = 'bookings' AND column_name = 'client_id'",
        );
        assert.deepEqual(col.rows, [{ is_nullable: 'NO' }]);
        // a booking written as before (no client named) gets one from the trigger
        await insertOldBooking(db, {
          id: 'bkg_a5',
          business: 'biz_a',
          name: 'New Nóra',
          phone: '+36307776655',
          email: 'eva@example.com',
          createdAt: '2026-11-01T10:00:00Z',
        });
        const linked = await db.query<{ client_id: string }>("SELECT client_id FROM bookings WHERE id = 'bkg_a5'");
        assert.equal(linked.rows[0]!.client_id, eva);
      } finally {
        await db.close();
      }
    });
  });
}
