/**
 * LISTEN never takes a connection queries need: with a pool of one (DB_POOL_MAX=1) and the worker
 * listening, queries still run at once; a notification still arrives, and unsubscribing twice or
 * closing afterwards is harmless.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PgliteDb } from '../src/store/pglite-db.ts';
import { PostgresDb } from '../src/store/postgres-db.ts';
import type { Db } from '../src/store/db.ts';

const targets: Array<{ name: string; open: () => Promise<Db> }> = [{ name: 'pglite', open: () => PgliteDb.open('memory://') }];
if (process.env.DATABASE_URL) targets.push({ name: 'postgres', open: async () => PostgresDb.open(process.env.DATABASE_URL!, 1) });

for (const target of targets) {
  test(`a listener leaves the connections to queries, pool of one [${target.name}]`, async () => {
    const db = await target.open();
    try {
      const got: string[] = [];
      const unlisten = await db.listen('lead_listen_test', (p) => got.push(p));
      const started = Date.now();
      const r = await db.query<{ one: number }>('SELECT 1 AS one');
      assert.equal(r.rows[0]!.one, 1);
      assert.ok(Date.now() - started < 5_000, 'the query did not wait for a connection');
      await db.query("SELECT pg_notify('lead_listen_test', 'hello')");
      for (let i = 0; i < 100 && got.length === 0; i++) await new Promise((res) => setTimeout(res, 20));
      assert.deepEqual(got, ['hello']);
      await unlisten();
      await unlisten();
    } finally {
      await db.close();
    }
  });
}
