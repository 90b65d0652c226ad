/**
 * The worker as a real process (`src/worker.ts`) against PostgreSQL: killed mid-delivery and
 * restarted, and stopped gracefully. PGlite is not covered here: its embedded database belongs to
 * the one process that opened it, so a separate worker process cannot share it.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createOk } from './helpers/bookings.ts';
import { createSalon } from './helpers/fixtures.ts';
import type { Harness } from './helpers/harness.ts';
import { openScratchPostgres } from './helpers/isolated-databases.ts';
import { freePort } from './helpers/processes.ts';
import { WebhookReceiver } from './helpers/webhook-receiver.ts';
import { attemptsOf, createWebhook, deliveriesOf, waitForFinal, webhookHarness } from './helpers/webhooks.ts';

const ROOT = join(import.meta.dirname, '..');
const TIMEOUT_MS = 2000;

const serverUrl = process.env.DATABASE_URL;
if (serverUrl) {
  describe('webhook worker process [postgres only: a PGlite database cannot be shared by two processes]', () => {
    let h: Harness;
    let url: string;
    let receiver: WebhookReceiver;
    const children = new Set<ChildProcess>();

    before(async () => {
      h = await webhookHarness({
        name: 'postgres',
        open: async () => {
          const db = await openScratchPostgres(serverUrl);
          url = db.url;
          return db;
        },
      });
      receiver = await WebhookReceiver.start();
    });
    after(async () => {
      for (const c of children) c.kill('SIGKILL');
      await receiver.close();
      await h.close();
    });

    function startWorker(extraEnv: Record<string, string> = {}): ChildProcess {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: url,
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
          WEBHOOK_RETRY_DELAYS: '20ms-40ms,20ms-40ms',
          LOG_LEVEL: 'error',
          ...extraEnv,
        },
      });
      children.add(child);
      child.on('exit', () => children.delete(child));
      return child;
    }

    function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
        else child.once('exit', (code, signal) => resolve({ code, signal }));
      });
    }

    test('a worker killed (SIGKILL) while the receiver holds the request: a restarted worker still delivers it', async () => {
      const salon = await createSalon(h.app);
      const { url: hook, path } = receiver.path('crash', (n) => (n === 1 ? 'hang' : { status: 200 }));
      await createWebhook(h, salon, hook);
      const booking = await createOk(h, salon, { service: salon.manualService });

      const first = startWorker();
      await receiver.waitFor(() => receiver.at(path).length === 1, 60_000, 'the first attempt');
      first.kill('SIGKILL');
      assert.equal((await exited(first)).signal, 'SIGKILL');
      const [held] = await deliveriesOf(h.db, booking.bookingId);
      assert.equal(held!.status, 'processing', 'the dead worker still holds the claim');

      const second = startWorker();
      try {
        const [row] = await waitForFinal(h.db, booking.bookingId, 1, 60_000);
        assert.deepEqual([row!.status, row!.attempt_count, row!.outcome], ['succeeded', 1, 'success']);
        const [a, b] = receiver.at(path);
        assert.equal(receiver.at(path).length, 2);
        assert.equal(b!.headers['x-service-delivery-id'], a!.headers['x-service-delivery-id']);
        assert.equal(b!.headers['x-service-timestamp'], a!.headers['x-service-timestamp']);
        assert.ok(b!.body.equals(a!.body));
        // The killed attempt was never recorded, so it is made again under the same number:
        // at-least-once, deduplicated by the receiver on deliveryId.
        assert.deepEqual([a!.headers['x-service-attempt'], b!.headers['x-service-attempt']], ['1', '1']);
        assert.deepEqual(
          (await attemptsOf(h.db, row!.delivery_id)).map((x) => [x.attempt, x.outcome]),
          [[1, 'success']],
        );
      } finally {
        second.kill('SIGTERM');
        await exited(second);
      }
    });

    test('WORKER_METRICS_PORT: the worker serves its attempts and the backlog at /metrics, with the operator token', async () => {
      const salon = await createSalon(h.app);
      const { url: hook, path } = receiver.path('metrics', () => ({ status: 200 }));
      await createWebhook(h, salon, hook);
      const booking = await createOk(h, salon, { service: salon.manualService });
      const port = await freePort();
      const token = 'worker-process-metrics-token-0123';
      const worker = startWorker({ WORKER_METRICS_PORT: String(port), ADMIN_TOKEN: token });
      try {
        await waitForFinal(h.db, booking.bookingId, 1, 60_000);
        assert.equal(receiver.at(path).length, 1);
        const scrape = () => fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${token}` } });
        const r = await scrape();
        assert.equal(r.status, 200);
        const text = await r.text();
        assert.match(text, /^webhook_attempts_total\{outcome="success"\} 1$/m);
        assert.match(text, /^webhook_outbox_backlog \d+$/m);
        assert.equal((await fetch(`http://127.0.0.1:${port}/metrics`)).status, 401);
      } finally {
        worker.kill('SIGTERM');
        assert.equal((await exited(worker)).code, 0);
      }
    });

    test('SIGTERM: the attempt in flight finishes and is recorded before the worker exits', async () => {
      const salon = await createSalon(h.app);
      const { url: hook, path } = receiver.path('sigterm', () => 'hang');
      await createWebhook(h, salon, hook);
      const booking = await createOk(h, salon, { service: salon.manualService });

      const worker = startWorker();
      await receiver.waitFor(() => receiver.at(path).length === 1, 60_000, 'the first attempt');
      worker.kill('SIGTERM');
      const { code } = await exited(worker);
      receiver.releaseHanging();
      assert.equal(code, 0);
      const [row] = await deliveriesOf(h.db, booking.bookingId);
      assert.deepEqual([row!.status, row!.attempt_count, row!.outcome, row!.locked_until], ['retry_scheduled', 1, 'timeout', null]);
      assert.equal(receiver.at(path).length, 1);
    });
  });
} else {
  // Counted as a skip in the runner's summary (an absent describe() would not show at all).
  test('webhook worker process [postgres only]', { skip: 'needs DATABASE_URL' }, () => {});
}
