import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { WebhookWorker } from '../src/webhooks/worker.ts';
import { createOk, expectError } from './helpers/bookings.ts';
import { api, createKey, createSalon } from './helpers/fixtures.ts';
import { call, type Harness } from './helpers/harness.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { verifySignature, WebhookReceiver } from './helpers/webhook-receiver.ts';
import { createWebhook, deleteWebhook, exhaustedDelivery, testWorker, waitForFinal, webhookHarness } from './helpers/webhooks.ts';

const redeliverPath = (deliveryId: string) => `/webhooks/deliveries/${deliveryId}/redeliver`;

for (const target of isolatedDbTargets()) {
  describe(`POST /v1/webhooks/deliveries/{deliveryId}/redeliver [${target.name}]`, () => {
    let h: Harness;
    let receiver: WebhookReceiver;
    let worker: WebhookWorker;
    before(async () => {
      h = await webhookHarness(target);
      receiver = await WebhookReceiver.start();
      worker = await testWorker(h);
    });
    after(async () => {
      await worker.stop();
      await receiver.close();
      await h.close();
    });

    test('an exhausted delivery sent again: the same bytes and timestamp as attempt 4, recorded succeeded; a replay of the key makes no attempt', async () => {
      const salon = await createSalon(h.app);
      const { url, path } = receiver.path('public-redeliver', (attempt) => ({ status: attempt <= 3 ? 500 : 200 }));
      const secret = await createWebhook(h, salon, url);
      const deliveryId = await exhaustedDelivery(h, receiver, salon, path);

      const key = { 'idempotency-key': '6f1c1f1e-4f5a-4c1b-9d7e-2b8f3a9c0d11' };
      const r = await api(h.app, salon.key.secret, 'POST', redeliverPath(deliveryId), undefined, key);
      assert.equal(r.status, 200, r.raw);
      const { delivery } = r.body.data;
      assert.equal(delivery.deliveryId, deliveryId);
      assert.equal(delivery.status, 'succeeded');
      assert.equal(delivery.attemptCount, 4);
      assert.deepEqual(
        delivery.attempts.map((a: any) => [a.attempt, a.statusCode]),
        [
          [1, 500],
          [2, 500],
          [3, 500],
          [4, 200],
        ],
      );

      const got = receiver.at(path);
      assert.equal(got.length, 4);
      const [first, , , fourth] = got;
      assert.ok(fourth!.body.equals(first!.body), 'identical body bytes');
      assert.equal(fourth!.headers['x-service-timestamp'], first!.headers['x-service-timestamp']);
      assert.equal(JSON.parse(fourth!.body.toString()).timestamp, first!.headers['x-service-timestamp']);
      assert.equal(fourth!.headers['x-service-delivery-id'], deliveryId);
      assert.equal(fourth!.headers['x-service-attempt'], '4');
      assert.ok(verifySignature(secret, fourth!.body, fourth!.headers['x-service-signature']));

      // The same key again: the stored answer, marked as a replay, and nothing sent.
      const replay = await api(h.app, salon.key.secret, 'POST', redeliverPath(deliveryId), undefined, key);
      assert.equal(replay.status, 200, replay.raw);
      assert.equal(replay.body.meta.idempotent, true);
      assert.deepEqual(replay.body.data, r.body.data);
      assert.equal(receiver.at(path).length, 4);

      // A new key is a new request: a fifth attempt of the same record.
      const again = await api(h.app, salon.key.secret, 'POST', redeliverPath(deliveryId));
      assert.equal(again.status, 200, again.raw);
      assert.equal(again.body.data.delivery.attemptCount, 5);
      assert.equal(receiver.at(path).length, 5);
      assert.equal(receiver.at(path)[4]!.headers['x-service-attempt'], '5');

      // The log shows the record as the last redelivery answered it.
      const log = await api(h.app, salon.key.secret, 'GET', `/webhooks/deliveries?salonSlug=${salon.business.slug}`);
      assert.deepEqual(log.body.data.deliveries, [again.body.data.delivery]);
    });

    test('while an attempt of the record is in flight: 503 idempotency.request_in_progress, and that key works once it ends', async () => {
      const salon = await createSalon(h.app);
      const { url, path } = receiver.path('public-slow', (attempt) =>
        attempt <= 3 ? { status: 500 } : attempt === 4 ? 'hang' : { status: 200 },
      );
      await createWebhook(h, salon, url);
      const deliveryId = await exhaustedDelivery(h, receiver, salon, path);
      const first = api(h.app, salon.key.secret, 'POST', redeliverPath(deliveryId));
      await receiver.waitFor(() => receiver.at(path).length === 4);

      const key = { 'idempotency-key': randomUUID() };
      expectError(
        await api(h.app, salon.key.secret, 'POST', redeliverPath(deliveryId), undefined, key),
        503,
        'idempotency.request_in_progress',
      );
      receiver.releaseHanging();
      const done = await first;
      assert.equal(done.status, 200, done.raw);
      assert.equal(done.body.data.delivery.attemptCount, 4);
      assert.equal(done.body.data.delivery.status, 'exhausted');

      // A retryable refusal does not keep the key: the same key now makes the next attempt.
      const retried = await api(h.app, salon.key.secret, 'POST', redeliverPath(deliveryId), undefined, key);
      assert.equal(retried.status, 200, retried.raw);
      assert.equal(retried.body.meta.idempotent, undefined);
      assert.equal(retried.body.data.delivery.attemptCount, 5);
      assert.equal(retried.body.data.delivery.status, 'succeeded');
      assert.equal(receiver.at(path).length, 5);
    });

    test("another business's delivery, or an unknown one, is 404 request.not_found and sends nothing", async () => {
      const mine = await createSalon(h.app);
      const other = await createSalon(h.app);
      const theirs = receiver.path('public-theirs');
      await createWebhook(h, other, theirs.url);
      await createWebhook(h, mine, receiver.path('public-mine').url);
      const booking = await createOk(h, other, { service: other.manualService });
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      expectError(await api(h.app, mine.key.secret, 'POST', redeliverPath(row!.delivery_id)), 404, 'request.not_found');
      expectError(await api(h.app, mine.key.secret, 'POST', redeliverPath('0'.repeat(32))), 404, 'request.not_found');
      assert.equal(receiver.at(theirs.path).length, 1);
      // Their key, naming our salon, is a scope mismatch before anything is looked up.
      expectError(
        await api(h.app, other.key.secret, 'POST', `${redeliverPath(row!.delivery_id)}?salonSlug=${mine.business.slug}`),
        403,
        'auth.scope_mismatch',
      );
      assert.equal(receiver.at(theirs.path).length, 1);
    });

    test('a key without webhook.manage is 403 auth.insufficient_capability; no Idempotency-Key is 400; no webhook is 404 webhook.not_configured', async () => {
      const salon = await createSalon(h.app);
      const { url, path } = receiver.path('public-access');
      await createWebhook(h, salon, url);
      const booking = await createOk(h, salon, { service: salon.manualService });
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      const deliveryId = row!.delivery_id;

      const reader = await createKey(h.app, salon.business.slug, { capabilities: ['booking.read', 'services.read'] });
      const denied = await api(h.app, reader.secret, 'POST', redeliverPath(deliveryId));
      expectError(denied, 403, 'auth.insufficient_capability');
      assert.deepEqual(denied.body.error.details.required, ['webhook.manage']);

      const noKey = await call(h.app, {
        method: 'POST',
        url: `/v1${redeliverPath(deliveryId)}`,
        headers: { authorization: `Bearer ${salon.key.secret}` },
      });
      expectError(noKey, 400, 'idempotency.key_required');
      assert.equal(receiver.at(path).length, 1, 'refused requests send nothing');

      await deleteWebhook(h, salon);
      expectError(await api(h.app, salon.key.secret, 'POST', redeliverPath(deliveryId)), 404, 'webhook.not_configured');
      assert.equal(receiver.at(path).length, 1);
    });
  });
}
