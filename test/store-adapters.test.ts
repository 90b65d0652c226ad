import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Db } from '../src/store/db.ts';
import { dbTargets } from './helpers/databases.ts';

// Store code reads rowCount the pg way; both adapters must report it alike.
for (const target of dbTargets()) {
  describe(`database adapter [${target.name}]`, () => {
    let db: Db;
    before(async () => {
      db = await target.open();
    });
    after(() => db.close());

    test('rowCount counts returned rows of a SELECT and affected rows of a write', async () => {
      assert.equal((await db.query('SELECT 1 UNION ALL SELECT 2')).rowCount, 2);
      assert.equal((await db.query('SELECT 1 WHERE false')).rowCount, 0);
      await db.transaction(async (tx) => {
        await tx.query('CREATE TEMP TABLE t (x int) ON COMMIT DROP');
        assert.equal((await tx.query('INSERT INTO t VALUES (1), (2), (3)')).rowCount, 3);
        assert.equal((await tx.query('UPDATE t SET x = x + 1 WHERE x > 1')).rowCount, 2);
        assert.equal((await tx.query('DELETE FROM t WHERE x = 1 RETURNING x')).rowCount, 1);
      });
    });
  });
}
