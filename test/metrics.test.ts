/**
 * GET /metrics: Prometheus text behind the operator token; requests by route pattern, method and
 * status with latency; rate-limit rejections; webhook attempts; the outbox backlog counted at scrape.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MemoryRateLimitStore } from '../src/rate-limit/memory-store.ts';
import { dbTargets } from './helpers/databases.ts';
import { ADMIN_TOKEN, call, startHarness, type Harness } from './helpers/harness.ts';
import { api, createSalon } from './helpers/fixtures.ts';
import { createOk, sql } from './helpers/bookings.ts';
import { BASE_NOW } from './helpers/bookings.ts';

/** The value of one series in Prometheus text, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

for (const target of dbTargets()) {
  describe(`GET /metrics [${target.name}]`, () => {
    let h: Harness;
    const store = new MemoryRateLimitStore();
    before(async () => {
      h = await startHarness(target, {}, { rateLimitStore: store });
      h.clock.now = new Date(BASE_NOW);
    });
    after(async () => {
      await h.close();
      await store.close();
    });

    async function scrape(): Promise<string> {
      const r = await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      assert.equal(r.statusCode, 200, r.body);
      assert.match(String(r.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      return r.body;
    }

    test('needs the operator token; not in the API document', async () => {
      for (const authorization of [undefined, 'Bearer wrong-token-0123456789']) {
        const r = await call(h.app, { method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
        assert.equal(r.status, 401);
        assert.equal(r.body.error.code, 'auth.invalid_key');
      }
      const salon = await createSalon(h.app);
      const withKey = await call(h.app, { method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${salon.key.secret}` } });
      assert.equal(withKey.status, 401, 'an API key is not the operator token');
      const doc = (await call(h.app, { method: 'GET', url: '/v1/openapi.json' })).body;
      assert.equal(doc.paths['/metrics'], undefined);
    });

    test('requests by route pattern (never the raw URL), method and status, with latency', async () => {
      const salon = await createSalon(h.app);
      const before = await scrape();
      const booking = await createOk(h, salon);
      await api(h.app, salon.key.secret, 'GET', `/bookings/${booking.bookingId}`);
      await api(h.app, salon.key.secret, 'GET', `/bookings/${booking.bookingId}`);
      await api(h.app, salon.key.secret, 'GET', '/bookings/bk_doesnotexist');
      await call(h.app, { method: 'GET', url: '/v1/no/such/route/12345' });
      const text = await scrape();
      const route = '/v1/bookings/:bookingId';
      const okBefore = sample(before, 'http_requests_total', { route, method: 'GET', status: '200' }) ?? 0;
      assert.equal(sample(text, 'http_requests_total', { route, method: 'GET', status: '200' }), okBefore + 2);
      assert.ok((sample(text, 'http_requests_total', { route, method: 'GET', status: '404' }) ?? 0) >= 1);
      assert.ok((sample(text, 'http_requests_total', { route: '/v1/bookings', method: 'POST', status: '201' }) ?? 0) >= 1);
      assert.ok((sample(text, 'http_requests_total', { route: 'unmatched', method: 'GET', status: '404' }) ?? 0) >= 1);
      assert.ok(!text.includes(booking.bookingId), 'no raw ids in labels');
      assert.ok(!text.includes('no/such/route'), 'no raw unknown paths in labels');
      const count = sample(text, 'http_request_duration_seconds_count', { route, method: 'GET', status: '200' });
      assert.equal(count, okBefore + 2);
      const sum = sample(text, 'http_request_duration_seconds_sum', { route, method: 'GET', status: '200' })!;
      assert.ok(sum > 0 && sum < 60, `latency sum ${sum}`);
    });

    test('rate-limit rejections by group and tier', async () => {
      const salon = await createSalon(h.app);
      const before = sample(await scrape(), 'rate_limit_rejections_total', { group: 'subscription', tier: 'standard' }) ?? 0;
      for (let i = 0; i < 63; i++) await api(h.app, salon.key.secret, 'GET', '/subscription');
      const text = await scrape();
      assert.equal(sample(text, 'rate_limit_rejections_total', { group: 'subscription', tier: 'standard' }), before + 3);
      assert.ok((sample(text, 'http_requests_total', { route: '/v1/subscription', method: 'GET', status: '429' }) ?? 0) >= 3);
    });

    test('webhook attempts by outcome and the outbox backlog', async () => {
      const text0 = await scrape();
      assert.match(text0, /# TYPE webhook_attempts_total counter/);
      assert.match(text0, /# TYPE rate_limit_fail_open_total counter/);
      const backlog0 = sample(text0, 'webhook_outbox_backlog');
      assert.equal(typeof backlog0, 'number');

      // A business with a webhook: its booking events are queued in the outbox.
      const salon = await createSalon(h.app);
      await sql(h, `INSERT INTO webhook_configs (business_id, url, secret_ciphertext) VALUES ($1, 'https://hooks.example.com/x', 'x')`, [
        salon.business.id,
      ]);
      await createOk(h, salon); // automatic: requested + confirmed = two deliveries
      const queued = await sql<{ n: number }>(
        h,
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status IN ('pending', 'processing', 'retry_scheduled')`,
      );
      const text1 = await scrape();
      if (target.name === 'pglite') {
        // This file's own database: nothing else adds or drains deliveries meanwhile.
        assert.equal(sample(text1, 'webhook_outbox_backlog'), queued[0]!.n);
        assert.equal(sample(text1, 'webhook_outbox_backlog')! - backlog0!, 2);
      } else {
        // A PostgreSQL database shared with other test files (and their workers): only the shape.
        assert.ok(Number.isInteger(sample(text1, 'webhook_outbox_backlog')) && sample(text1, 'webhook_outbox_backlog')! >= 0);
      }

      h.app.ctx.metrics.webhookAttempts.inc({ outcome: 'success' });
      h.app.ctx.metrics.webhookAttempts.inc({ outcome: 'timeout' });
      const text2 = await scrape();
      assert.ok((sample(text2, 'webhook_attempts_total', { outcome: 'success' }) ?? 0) >= 1);
      assert.ok((sample(text2, 'webhook_attempts_total', { outcome: 'timeout' }) ?? 0) >= 1);
    });
  });
}
