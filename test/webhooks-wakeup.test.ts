import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { WebhookWorker } from '../src/webhooks/worker.ts';
import { createOk } from './helpers/bookings.ts';
import { createSalon } from './helpers/fixtures.ts';
import type { Harness } from './helpers/harness.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { WebhookReceiver } from './helpers/webhook-receiver.ts';
import { createWebhook, testWorker, waitForFinal, webhookHarness } from './helpers/webhooks.ts';

// The poll is set far beyond the waits below, so only NOTIFY and the worker's own retry timer can
// explain a prompt delivery.
const POLL_MS = 30_000;
const PROMPT_MS = 5_000;

for (const target of isolatedDbTargets()) {
  describe(`webhook worker wake-up without polling [${target.name}]`, () => {
    let h: Harness;
    let receiver: WebhookReceiver;
    let worker: WebhookWorker;
    before(async () => {
      h = await webhookHarness(target);
      receiver = await WebhookReceiver.start();
      worker = await testWorker(h, { pollIntervalMs: POLL_MS, housekeeping: false });
      // let the start-up claim pass, so that the next look can only come from a wake-up
      await new Promise((r) => setTimeout(r, 200));
    });
    after(async () => {
      await worker.stop();
      await receiver.close();
      await h.close();
    });

    test('the booking commit notifies the worker: delivered long before the next poll', async () => {
      const salon = await createSalon(h.app);
      const { url, path } = receiver.path('notify');
      await createWebhook(h, salon, url);
      const t0 = performance.now();
      await createOk(h, salon, { service: salon.manualService });
      await receiver.waitFor(() => receiver.at(path).length === 1, PROMPT_MS, 'the notified delivery');
      assert.ok(performance.now() - t0 < PROMPT_MS);
    });

    test('a retry is made when it is due, by the worker that scheduled it, not at the next poll', async () => {
      const salon = await createSalon(h.app);
      const { url, path } = receiver.path('retry-timer', (n) => ({ status: n === 1 ? 500 : 200 }));
      await createWebhook(h, salon, url);
      const booking = await createOk(h, salon, { service: salon.manualService });
      await receiver.waitFor(() => receiver.at(path).length === 2, PROMPT_MS, 'the retry');
      const [row] = await waitForFinal(h.db, booking.bookingId, 1, PROMPT_MS);
      assert.deepEqual([row!.status, row!.attempt_count], ['succeeded', 2]);
    });
  });
}
