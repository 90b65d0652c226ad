/**
 * The one list of tables whose writes change cached answers (VERSIONED_TABLES in
 * src/store/business-versions.ts) is the database's: every table with a version trigger is listed
 * under the version its trigger bumps, every listed table has one, and each trigger is deferred to
 * commit (docs/architecture.md, "Caches and their invalidation").
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mayBumpVersion, VERSIONED_TABLES } from '../src/store/business-versions.ts';
import type { Db } from '../src/store/db.ts';
import { dbTargets } from './helpers/databases.ts';

for (const target of dbTargets()) {
  describe(`versioned tables [${target.name}]`, () => {
    let db: Db;
    before(async () => {
      db = await target.open();
    });
    after(() => db.close());

    test('the tables with a version trigger are exactly the listed ones, each deferred to commit', async () => {
      const r = await db.query<{ tbl: string; fn: string; deferrable: boolean; deferred: boolean }>(
        `SELECT c.relname AS tbl, p.proname AS fn, t.tgdeferrable AS deferrable, t.tginitdeferred AS deferred
           FROM pg_trigger t
           JOIN pg_class c ON c.oid = t.tgrelid
           JOIN pg_proc p ON p.oid = t.tgfoid
          WHERE NOT t.tgisinternal AND (p.proname LIKE 'bump\\_business\\_version\\_by\\_%' OR p.proname = 'bump_occupancy_version')`,
      );
      const byVersion = (occupancy: boolean) =>
        [...new Set(r.rows.filter((row) => (row.fn === 'bump_occupancy_version') === occupancy).map((row) => row.tbl))].sort();
      assert.deepEqual(byVersion(false), [...VERSIONED_TABLES.business].sort(), 'business version triggers');
      assert.deepEqual(byVersion(true), [...VERSIONED_TABLES.occupancy].sort(), 'occupancy version triggers');
      for (const row of r.rows) assert.ok(row.deferrable && row.deferred, `${row.tbl}'s version trigger runs at commit`);
    });
  });
}

test('a write to each listed table may bump a version; a read or an unlisted table does not', () => {
  for (const t of [...VERSIONED_TABLES.business, ...VERSIONED_TABLES.occupancy]) {
    assert.ok(mayBumpVersion(`UPDATE ${t} SET x = 1`), t);
    assert.ok(mayBumpVersion(`INSERT INTO ${t} (x) VALUES (1)`), t);
  }
  assert.ok(!mayBumpVersion('SELECT * FROM bookings'));
  assert.ok(!mayBumpVersion('UPDATE messages SET status = 1'));
  assert.ok(!mayBumpVersion('/* unversioned */ UPDATE api_keys SET last_used_at = now()'));
});
