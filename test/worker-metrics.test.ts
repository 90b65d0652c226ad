/**
 * GET /metrics of a standalone worker (src/http/worker-metrics.ts): the operator token, the
 * Prometheus text, and errors in the envelope. The worker process serving it is tested in
 * webhooks-worker-process.test.ts.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig } from '../src/config.ts';
import { startWorkerMetricsServer } from '../src/http/worker-metrics.ts';
import { Metrics } from '../src/metrics.ts';

const TOKEN = 'worker-metrics-token-0123456789';

async function start(adminToken: string | undefined): Promise<{ server: FastifyInstance; url: string; metrics: Metrics }> {
  const metrics = new Metrics();
  metrics.setBacklogSource(async () => 7);
  const server = await startWorkerMetricsServer({ host: '127.0.0.1', port: 0, adminToken, metrics });
  return { server, url: `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`, metrics };
}

describe('worker metrics endpoint', () => {
  let s: Awaited<ReturnType<typeof start>>;
  before(async () => {
    s = await start(TOKEN);
  });
  after(() => s.server.close());

  test('with the operator token: the Prometheus text of the worker', async () => {
    s.metrics.webhookAttempts.inc({ outcome: 'success' });
    s.metrics.webhookAttempts.inc({ outcome: 'success' });
    s.metrics.webhookAttempts.inc({ outcome: 'timeout' });
    const r = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await r.text();
    assert.match(text, /^webhook_attempts_total\{outcome="success"\} 2$/m);
    assert.match(text, /^webhook_attempts_total\{outcome="timeout"\} 1$/m);
    assert.match(text, /^webhook_outbox_backlog 7$/m);
  });

  test('without it, or with another token: 401 auth.invalid_key in the envelope', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer not-the-token-at-all' }, { authorization: TOKEN }];
    for (const headers of attempts) {
      const r = await fetch(`${s.url}/metrics`, { headers });
      assert.equal(r.status, 401);
      const body = (await r.json()) as any;
      assert.equal(body.ok, false);
      assert.equal(body.error.code, 'auth.invalid_key');
      assert.equal(body.meta.requestId, r.headers.get('x-request-id'));
    }
  });

  test('any other path: 404 request.not_found in the envelope', async () => {
    const r = await fetch(`${s.url}/v1/bookings`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(r.status, 404);
    assert.equal(((await r.json()) as any).error.code, 'request.not_found');
  });
});

test('without ADMIN_TOKEN every scrape is refused, and says why', async () => {
  const s = await start(undefined);
  try {
    const r = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(r.status, 401);
    const body = (await r.json()) as any;
    assert.equal(body.error.code, 'auth.invalid_key');
    assert.match(body.error.message, /ADMIN_TOKEN/);
  } finally {
    await s.server.close();
  }
});

test('a port that is taken: the start fails instead of running without metrics', async () => {
  const s = await start(TOKEN);
  try {
    const port = (s.server.server.address() as AddressInfo).port;
    await assert.rejects(startWorkerMetricsServer({ host: '127.0.0.1', port, adminToken: TOKEN, metrics: new Metrics() }), /EADDRINUSE/);
  } finally {
    await s.server.close();
  }
});

test('WORKER_METRICS_PORT: unset means no port; a bad value is a configuration error naming it', () => {
  assert.equal(loadConfig({}).workerMetricsPort, undefined);
  assert.equal(loadConfig({ WORKER_METRICS_PORT: ' ' }).workerMetricsPort, undefined);
  assert.equal(loadConfig({ WORKER_METRICS_PORT: '9101' }).workerMetricsPort, 9101);
  assert.equal(loadConfig({ WORKER_METRICS_PORT: '0' }).workerMetricsPort, 0);
  for (const bad of ['metrics', '65536', '-1']) {
    assert.throws(
      () => loadConfig({ WORKER_METRICS_PORT: bad }),
      (e: unknown) => e instanceof ConfigError && e.variable === 'WORKER_METRICS_PORT',
    );
  }
});
