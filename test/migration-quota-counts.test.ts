/**
 * Migration 004 moves the monthly booking count from the subscription row to booking_quota_counts:
 * a database at 003 with counts in it keeps them (this month's count stays, an older month's is
 * not this month's), and the subscription view reads the moved count.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Db } from '../src/store/db.ts';
import { migrate } from '../src/store/migrate.ts';
import { MIGRATIONS } from '../src/store/migrations/index.ts';
import { PgliteDb } from '../src/store/pglite-db.ts';
import { getSubscription } from '../src/store/subscriptions.ts';
import { openScratchPostgres } from './helpers/isolated-databases.ts';

const targets: Array<{ name: string; open: () => Promise<Db> }> = [{ name: 'pglite', open: () => PgliteDb.open('memory://') }];
if (process.env.DATABASE_URL) {
  const url = process.env.DATABASE_URL;
  targets.push({ name: 'postgres', open: () => openScratchPostgres(url, { migrate: false }) });
}

/** The migrations before 004, recorded as migrate() records them. */
async function migrateTo003(db: Db): Promise<void> {
  await db.exec('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  for (const m of MIGRATIONS.slice(0, 3)) {
    await db.exec(m.sql);
    await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
  }
}

for (const target of targets) {
  describe(`migration 004: quota counts carried over [${target.name}]`, () => {
    test('this month keeps its count, an older month starts from 0', async () => {
      const db = await target.open();
      try {
        assert.equal(MIGRATIONS[2]!.name, '003-group-sessions-hold-staff');
        await migrateTo003(db);
        for (const [id, window, n] of [
          ['biz_now', "date_trunc('month', now() AT TIME ZONE 'UTC')::date", 7],
          ['biz_old', "(date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month')::date", 5],
        ] as const) {
          await db.query("INSERT INTO businesses (id, slug, name, currency) VALUES ($1, $1, 'Salon', 'HUF')", [id]);
          await db.query(
            `INSERT INTO subscriptions (business_id, plan, status, max_bookings_per_month, quota_window_start, bookings_in_window)
             VALUES ($1, 'pro', 'active', 10, ${window}, $2)`,
            [id, n],
          );
        }
        assert.deepEqual(
          await migrate(db),
          MIGRATIONS.slice(3).map((m) => m.name),
        );
        assert.equal((await getSubscription(db, 'biz_now'))!.bookingsThisMonth, 7);
        assert.equal((await getSubscription(db, 'biz_old'))!.bookingsThisMonth, 0);
        const cols = await db.query(
          "SELECT 1 FROM information_schema.columns WHERE table_name = 'subscriptions' AND column_name = 'bookings_in_window'",
        );
        assert.equal(cols.rows.length, 0);
      } finally {
        await db.close();
      }
    });
  });
}
