/**
 * A request that cannot get a PostgreSQL connection within DB_POOL_TIMEOUT_MS is answered at once,
 * in the envelope and retryable, instead of queueing for seconds (issue 12). PostgreSQL only: PGlite
 * has no pool.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../src/app.ts';
import type { App } from '../src/http/context.ts';
import { migrated } from '../src/store/migrate.ts';
import { PostgresDb } from '../src/store/postgres-db.ts';
import { BASE_NOW, createBody } from './helpers/bookings.ts';
import { api, createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { call, testConfig } from './helpers/harness.ts';
import { GenerousRateLimitStore } from './helpers/rate-limit.ts';

const url = process.env.DATABASE_URL;
const TIMEOUT_MS = 300;

describe('a request that finds no free database connection', () => {
  if (!url) {
    test('is answered busy within DB_POOL_TIMEOUT_MS', { skip: 'needs DATABASE_URL' }, () => {});
    return;
  }
  let db: PostgresDb;
  let app: App;
  let store: GenerousRateLimitStore;
  let salon: SalonFixture;
  before(async () => {
    db = await migrated(PostgresDb.open(url, 1, TIMEOUT_MS));
    store = new GenerousRateLimitStore();
    app = await buildApp({
      logger: false,
      config: testConfig({ dbPoolMax: 1, dbPoolTimeoutMs: TIMEOUT_MS }),
      db,
      rateLimitStore: store,
      clock: () => new Date(BASE_NOW),
    });
    salon = await createSalon(app);
  });
  after(async () => {
    await app?.close();
    await store?.close();
    await db?.close();
  });

  const services = () =>
    call(app, {
      method: 'GET',
      url: `/v1/services?salonSlug=${salon.business.slug}&locationSlug=${salon.location.slug}`,
      headers: { authorization: `Bearer ${salon.key.secret}` },
    });

  test('is answered busy within DB_POOL_TIMEOUT_MS, in the envelope and retryable; the next one is served', async () => {
    // The pool's one connection is held by a transaction until the request has been answered.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const isHolding = new Promise<void>((resolve) => (holding = resolve));
    const holder = db.transaction(async () => {
      holding();
      await held;
    });
    await isHolding;
    const started = performance.now();
    const busy = await services();
    const ms = performance.now() - started;
    release();
    await holder;

    assert.equal(busy.status, 500);
    assert.equal(busy.body.ok, false);
    assert.equal(busy.body.error.code, 'internal.error');
    assert.equal(busy.body.error.retryable, true);
    assert.match(busy.body.error.message, /busy/);
    assert.equal(busy.headers['retry-after'], '1');
    assert.ok(busy.body.meta.requestId, 'meta.requestId');
    assert.ok(ms >= TIMEOUT_MS - 20 && ms < TIMEOUT_MS + 1500, `answered after ${ms.toFixed(0)} ms (bound ${TIMEOUT_MS} ms)`);

    const served = await services();
    assert.equal(served.status, 200, JSON.stringify(served.body));
  });

  test('a write that finds the pool busy after claiming its key is answered busy at once, and its retry with the key runs', async () => {
    const key = randomUUID();
    const post = () => api(app, salon.key.secret, 'POST', '/bookings', createBody(salon), { 'idempotency-key': key });
    // Right after this request claims its key, a transaction takes the pool's one connection.
    const query = db.query.bind(db);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holder: Promise<void> | undefined;
    db.query = (async (text: string, params?: unknown[]) => {
      const r = await query(text, params);
      if (holder === undefined && text.includes('INSERT INTO idempotency_records')) {
        let holding!: () => void;
        const isHolding = new Promise<void>((resolve) => (holding = resolve));
        holder = db.transaction(async () => {
          holding();
          await held;
        });
        await isHolding;
      }
      return r;
    }) as typeof db.query;
    let busy: Awaited<ReturnType<typeof post>>;
    const started = performance.now();
    try {
      busy = await post();
    } finally {
      db.query = query;
    }
    const ms = performance.now() - started;
    assert.equal(busy.status, 500, busy.raw);
    assert.equal(busy.body.error.retryable, true);
    assert.ok(ms < TIMEOUT_MS * 2 - 50, `answered after ${ms.toFixed(0)} ms: one pool wait, not a second one for the key`);
    release();
    await holder;
    // As the client told Retry-After: 1 would: the key was released once a connection came free.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const retried = await post();
    assert.equal(retried.status, 201, retried.raw);
  });
});
