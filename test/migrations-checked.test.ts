/**
 * The migration runner records each applied migration's checksum and, before applying anything,
 * refuses a database whose applied migrations are not the first of the server's own with the same
 * checksums: one missing from the code, one changed since it was applied, or a new one before an
 * applied one (docs/operations.md, "Upgrading"). Small migrations of the test's own, so each case
 * is a fresh database; the real list is checked once at the end, and a real API process on such a
 * database exits 65 with one line.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Db } from '../src/store/db.ts';
import { MigrationMismatchError, migrate, migrationChecksum, type Migration } from '../src/store/migrate.ts';
import { MIGRATIONS } from '../src/store/migrations/index.ts';
import { PgliteDb } from '../src/store/pglite-db.ts';
import { runToExit } from './helpers/api-process.ts';
import { openScratchPostgres } from './helpers/isolated-databases.ts';
import { freePort } from './helpers/processes.ts';

const targets: Array<{ name: string; open: () => Promise<Db> }> = [{ name: 'pglite', open: () => PgliteDb.open('memory://') }];
if (process.env.DATABASE_URL) {
  const url = process.env.DATABASE_URL;
  targets.push({ name: 'postgres', open: () => openScratchPostgres(url, { migrate: false }) });
}

const m = (name: string, sql = `CREATE TABLE t_${name.replace(/\W/g, '_')} (x int)`): Migration => ({ name, sql });
const A = m('001-a');
const B = m('002-b');
const C = m('003-c');
const D = m('004-d');

async function tables(db: Db): Promise<string[]> {
  const r = await db.query<{ t: string }>(
    `SELECT table_name AS t FROM information_schema.tables WHERE table_name LIKE 't\\_0%' ORDER BY 1`,
  );
  return r.rows.map((row) => row.t);
}

async function refused(db: Db, list: Migration[], reason: MigrationMismatchError['reason'], migration: string): Promise<void> {
  await assert.rejects(migrate(db, list), (err: unknown) => {
    assert.ok(err instanceof MigrationMismatchError, String(err));
    assert.equal(err.reason, reason);
    assert.equal(err.migration, migration);
    assert.match(err.message, new RegExp(migration));
    return true;
  });
}

for (const target of targets) {
  describe(`migrations checked [${target.name}]`, () => {
    const withDb = async (fn: (db: Db) => Promise<void>) => {
      const db = await target.open();
      try {
        await fn(db);
      } finally {
        await db.close();
      }
    };

    test('a fresh database applies every migration once and records its checksum', () =>
      withDb(async (db) => {
        assert.deepEqual(await migrate(db, [A, B, C]), ['001-a', '002-b', '003-c']);
        assert.deepEqual(await migrate(db, [A, B, C]), []);
        const rows = (await db.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_migrations ORDER BY name'))
          .rows;
        assert.deepEqual(
          rows.map((r) => [r.name, r.checksum]),
          [A, B, C].map((x) => [x.name, migrationChecksum(x.sql)]),
        );
        assert.ok(rows.every((r) => /^[0-9a-f]{64}$/.test(r.checksum)));
      }));

    test('a migration changed since it was applied is refused, and nothing new is applied', () =>
      withDb(async (db) => {
        await migrate(db, [A, B]);
        await refused(db, [A, m('002-b', 'CREATE TABLE t_002_b (x int, y int)'), C], 'changed', '002-b');
        assert.deepEqual(await tables(db), ['t_001_a', 't_002_b']);
      }));

    test('a migration applied here but missing from the code is refused', () =>
      withDb(async (db) => {
        await migrate(db, [A, B, C]);
        await refused(db, [A, B], 'missing', '003-c');
      }));

    test('a new migration before an applied one is refused as out of order', () =>
      withDb(async (db) => {
        await migrate(db, [A, C]);
        await refused(db, [A, B, C, D], 'out_of_order', '002-b');
        assert.deepEqual(await tables(db), ['t_001_a', 't_003_c']);
      }));

    test('a database migrated before checksums were recorded gets them, and is checked from then on', () =>
      withDb(async (db) => {
        await db.exec('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
        for (const x of [A, B]) {
          await db.exec(x.sql);
          await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [x.name]);
        }
        assert.deepEqual(await migrate(db, [A, B, C]), ['003-c']);
        const sums = (await db.query<{ checksum: string | null }>('SELECT checksum FROM schema_migrations ORDER BY name')).rows;
        assert.deepEqual(
          sums.map((r) => r.checksum),
          [A, B, C].map((x) => migrationChecksum(x.sql)),
        );
        await refused(db, [m('001-a', 'CREATE TABLE t_001_a (z int)'), B, C], 'changed', '001-a');
      }));
  });
}

test('line endings do not change a checksum; any other character does', () => {
  assert.equal(migrationChecksum('CREATE TABLE a (x int);\nSELECT 1;'), migrationChecksum('CREATE TABLE a (x int);\r\nSELECT 1;'));
  assert.notEqual(migrationChecksum('CREATE TABLE a (x int);'), migrationChecksum('CREATE TABLE a (x  int);'));
});

test("the server's own migrations are recorded with their checksums", async () => {
  const db = await PgliteDb.open('memory://');
  try {
    await migrate(db);
    const rows = (await db.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_migrations ORDER BY name')).rows;
    assert.deepEqual(
      rows.map((r) => [r.name, r.checksum]),
      MIGRATIONS.map((x) => [x.name, migrationChecksum(x.sql)]),
    );
  } finally {
    await db.close();
  }
});

test('API: a database with a migration this version does not have exits 65 with one line, the database untouched', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'migrations-checked-'));
  try {
    const db = await PgliteDb.open(join(dir, 'data'));
    await migrate(db);
    await db.query(`INSERT INTO schema_migrations (name, checksum) VALUES ('999-from-a-newer-version', 'x')`);
    await db.close();
    const r = await runToExit([process.execPath, '--import', 'tsx', 'src/main.ts'], {
      DATA_DIR: join(dir, 'data'),
      SEED_DEMO: 'false',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
    });
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
    assert.equal(r.code, 65, `exit code\nstderr: ${r.stderr}`);
    assert.equal(lines.length, 1, `stderr is one line:\n${r.stderr}`);
    assert.match(
      lines[0]!,
      /^Cannot start: migration 999-from-a-newer-version was applied to this database but this server does not have it/,
    );
    assert.doesNotMatch(r.stderr + r.stdout, /^\s+at /m, 'no stack trace');
    const again = await PgliteDb.open(join(dir, 'data'));
    try {
      const n = (await again.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations')).rows[0]!.n;
      assert.equal(n, MIGRATIONS.length + 1);
    } finally {
      await again.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
