import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before } from 'node:test';
import { buildApp } from '../../src/app.ts';
import type { App } from '../../src/http/context.ts';
import { RedisRateLimitStore } from '../../src/rate-limit/redis-store.ts';
import type { Db } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { PostgresDb } from '../../src/store/postgres-db.ts';
import { testConfig } from './harness.ts';

export interface TwoInstances {
  /** the instance that writes */
  a: App;
  /** the other instance, which reads (its caches warm or not) */
  b: App;
  /** a's database handle (writes made outside the API go through it) */
  db: Db;
  /** a's Redis store (a test may make its publication fail) */
  storeA: RedisRateLimitStore;
  /** the Redis key prefix both share, unique to the suite */
  prefix: string;
}

/**
 * Two buildApp instances, each with its own PostgreSQL pool and Redis connection, on one database
 * and one Redis, so their caches run in `redis` mode as in production: opened in the calling
 * suite's before() and closed in its after(). Answers a getter, valid once before() has run.
 */
export function useTwoInstances(databaseUrl: string, redisUrl: string, label: string): () => TwoInstances {
  const prefix = `test:${label}:${randomUUID()}:`;
  const opened: Array<{ app: App; db: Db; store: RedisRateLimitStore }> = [];
  let world: TwoInstances | undefined;
  before(async () => {
    for (let i = 0; i < 2; i++) {
      const db = PostgresDb.open(databaseUrl, 5);
      await migrate(db);
      const store = new RedisRateLimitStore(redisUrl, { prefix, commandTimeoutMs: 1000 }, () => {});
      assert.ok(await store.ready(2000));
      const app = await buildApp({ logger: false, config: testConfig(), db, rateLimitStore: store });
      assert.equal(app.ctx.caches.mode, 'redis');
      opened.push({ app, db, store });
    }
    world = { a: opened[0]!.app, b: opened[1]!.app, db: opened[0]!.db, storeA: opened[0]!.store, prefix };
  });
  after(async () => {
    for (const o of opened) {
      await o.app.close();
      await o.store.close();
      await o.db.close();
    }
  });
  return () => {
    assert.ok(world, 'the two instances are opened in before()');
    return world;
  };
}
