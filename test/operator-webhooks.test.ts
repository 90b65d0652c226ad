import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { WebhookWorker } from '../src/webhooks/worker.ts';
import { createOk, expectError } from './helpers/bookings.ts';
import { createSalon, type SalonFixture } from './helpers/fixtures.ts';
import { admin, adminOk, type Harness, startHarness } from './helpers/harness.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { verifySignature, WebhookReceiver } from './helpers/webhook-receiver.ts';
import {
  configureWebhook,
  createWebhook,
  exhaustedDelivery,
  rotateSecret,
  testWorker,
  waitForFinal,
  webhookHarness,
} from './helpers/webhooks.ts';

for (const target of isolatedDbTargets()) {
  describe(`operator webhook reads and redelivery [${target.name}]`, () => {
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

    const base = (salon: SalonFixture) => `/businesses/${salon.business.slug}/webhook`;

    test('the configuration: 404 webhook.not_configured before a PUT, then the URL and times without the secret', async () => {
      const salon = await createSalon(h.app);
      expectError(await admin(h.app, 'GET', base(salon)), 404, 'webhook.not_configured');
      const { url } = receiver.path('config');
      await createWebhook(h, salon, url);
      const { webhook } = await adminOk(h.app, 'GET', base(salon));
      assert.deepEqual(Object.keys(webhook).sort(), ['createdAt', 'updatedAt', 'url']);
      assert.equal(webhook.url, url);
      expectError(await admin(h.app, 'GET', '/businesses/no-such-salon-x/webhook'), 404, 'request.not_found');
    });

    test('a failed delivery redelivered: the same bytes, deliveryId and timestamp as attempt 4, recorded succeeded', async () => {
      const salon = await createSalon(h.app);
      const { url, path } = receiver.path('redeliver', (attempt) => ({ status: attempt <= 3 ? 500 : 200 }));
      const secret = await createWebhook(h, salon, url);
      const deliveryId = await exhaustedDelivery(h, receiver, salon, path);

      const listed = (await adminOk(h.app, 'GET', `${base(salon)}/deliveries`)).deliveries;
      assert.deepEqual(
        listed.map((d: any) => [d.deliveryId, d.status, d.attemptCount]),
        [[deliveryId, 'exhausted', 3]],
      );

      const { delivery } = await adminOk(h.app, 'POST', `${base(salon)}/deliveries/${deliveryId}/redeliver`);
      assert.equal(delivery.deliveryId, deliveryId);
      assert.equal(delivery.status, 'succeeded');
      assert.equal(delivery.attemptCount, 4);
      assert.equal(delivery.outcome, 'success');
      assert.equal(delivery.statusCode, 200);
      assert.equal(delivery.nextAttemptAt, null);
      assert.deepEqual(
        delivery.attempts.map((a: any) => [a.attempt, a.outcome, a.statusCode]),
        [
          [1, 'http_error', 500],
          [2, 'http_error', 500],
          [3, 'http_error', 500],
          [4, 'success', 200],
        ],
      );

      const got = receiver.at(path);
      assert.equal(got.length, 4);
      const [first, , , fourth] = got;
      assert.ok(fourth!.body.equals(first!.body), 'identical body bytes');
      assert.equal(fourth!.headers['x-service-timestamp'], first!.headers['x-service-timestamp']);
      assert.equal(fourth!.headers['x-service-delivery-id'], deliveryId);
      assert.equal(fourth!.headers['x-service-attempt'], '4');
      assert.ok(verifySignature(secret, fourth!.body, fourth!.headers['x-service-signature']));

      // The log shows the record as the redelivery answered it.
      const after = (await adminOk(h.app, 'GET', `${base(salon)}/deliveries?outcome=success`)).deliveries;
      assert.deepEqual(after, [delivery]);
    });

    test('a redelivery of a succeeded record goes to the current URL with the current secret', async () => {
      const salon = await createSalon(h.app);
      const first = receiver.path('before-move');
      await createWebhook(h, salon, first.url);
      const booking = await createOk(h, salon, { service: salon.manualService });
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.equal(row!.status, 'succeeded');

      const moved = receiver.path('after-move');
      await configureWebhook(h, salon, moved.url);
      const secret = await rotateSecret(h, salon);
      const { delivery } = await adminOk(h.app, 'POST', `${base(salon)}/deliveries/${row!.delivery_id}/redeliver`);
      assert.equal(delivery.status, 'succeeded');
      assert.equal(delivery.attemptCount, 2);
      const [again] = receiver.at(moved.path);
      assert.ok(again, 'sent to the URL configured now');
      assert.ok(again.body.equals(receiver.at(first.path)[0]!.body));
      assert.ok(verifySignature(secret, again.body, again.headers['x-service-signature']), 'signed with the secret as it is now');
    });

    test('a failing redelivery after the third attempt ends exhausted again, with no further automatic retry', async () => {
      const salon = await createSalon(h.app);
      const { url, path } = receiver.path('still-down', () => ({ status: 503 }));
      await createWebhook(h, salon, url);
      const deliveryId = await exhaustedDelivery(h, receiver, salon, path);
      const { delivery } = await adminOk(h.app, 'POST', `${base(salon)}/deliveries/${deliveryId}/redeliver`);
      assert.equal(delivery.status, 'exhausted');
      assert.equal(delivery.attemptCount, 4);
      assert.equal(delivery.statusCode, 503);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(receiver.at(path).length, 4);
    });

    test('while an attempt of the record is in flight, a redelivery is 503 idempotency.request_in_progress', async () => {
      const salon = await createSalon(h.app);
      const { url, path } = receiver.path('slow', (attempt) => (attempt <= 3 ? { status: 500 } : 'hang'));
      await createWebhook(h, salon, url);
      const deliveryId = await exhaustedDelivery(h, receiver, salon, path);
      const first = adminOk(h.app, 'POST', `${base(salon)}/deliveries/${deliveryId}/redeliver`);
      await receiver.waitFor(() => receiver.at(path).length === 4);
      const second = await admin(h.app, 'POST', `${base(salon)}/deliveries/${deliveryId}/redeliver`);
      expectError(second, 503, 'idempotency.request_in_progress');
      receiver.releaseHanging();
      const { delivery } = await first;
      assert.equal(delivery.attemptCount, 4);
      assert.equal(delivery.outcome, 'network_error');
      assert.equal(delivery.status, 'exhausted');
    });

    test("another business's delivery, or an unknown one, is 404 request.not_found and sends nothing", async () => {
      const mine = await createSalon(h.app);
      const other = await createSalon(h.app);
      const { url, path } = receiver.path('theirs');
      await createWebhook(h, other, url);
      await createWebhook(h, mine, receiver.path('mine').url);
      const booking = await createOk(h, other, { service: other.manualService });
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      expectError(await admin(h.app, 'POST', `${base(mine)}/deliveries/${row!.delivery_id}/redeliver`), 404, 'request.not_found');
      expectError(await admin(h.app, 'POST', `${base(mine)}/deliveries/nope/redeliver`), 404, 'request.not_found');
      assert.equal(receiver.at(path).length, 1);
      assert.deepEqual((await adminOk(h.app, 'GET', `${base(mine)}/deliveries`)).deliveries, []);
    });

    test('PUT /webhook creates the configuration and shows the signing secret once; a second PUT changes the URL without it', async () => {
      const salon = await createSalon(h.app);
      const first = receiver.path('operator-put');
      const created = (await adminOk(h.app, 'PUT', base(salon), { url: first.url })).webhook;
      assert.equal(created.url, first.url);
      assert.match(created.signingSecret, /.{16,}/);
      const moved = receiver.path('operator-put-moved');
      const changed = (await adminOk(h.app, 'PUT', base(salon), { url: moved.url })).webhook;
      assert.equal(changed.url, moved.url);
      assert.equal(changed.signingSecret, undefined, 'the secret is shown only by the PUT that created it');
      assert.equal((await adminOk(h.app, 'GET', base(salon))).webhook.url, moved.url);
      // The secret shown is the one that signs: a booking's delivery verifies with it.
      const booking = await createOk(h, salon, { service: salon.manualService });
      await waitForFinal(h.db, booking.bookingId, 1);
      const [got] = receiver.at(moved.path);
      assert.ok(got && verifySignature(created.signingSecret, got.body, got.headers['x-service-signature']));
      expectError(await admin(h.app, 'PUT', base(salon), { url: 'ftp://example.com/hook' }), 422, 'webhook.invalid_url');
      expectError(await admin(h.app, 'PUT', '/businesses/no-such-salon-x/webhook', { url: first.url }), 404, 'request.not_found');
    });

    test('the URL rules are the public ones: a private target is refused unless the server allows it', async () => {
      const strict = await startHarness(target);
      try {
        const salon = await createSalon(strict.app);
        const r = await admin(strict.app, 'PUT', base(salon), { url: 'http://127.0.0.1:9/hook' });
        expectError(r, 422, 'webhook.invalid_url');
        expectError(await admin(strict.app, 'GET', base(salon)), 404, 'webhook.not_configured');
      } finally {
        await strict.close();
      }
    });

    test('rotate-secret shows a new secret once, which signs the later attempts; DELETE removes the configuration', async () => {
      const salon = await createSalon(h.app);
      expectError(await admin(h.app, 'POST', `${base(salon)}/rotate-secret`), 404, 'webhook.not_configured');
      expectError(await admin(h.app, 'DELETE', base(salon)), 404, 'webhook.not_configured');
      const { url, path } = receiver.path('operator-rotate');
      const old = (await adminOk(h.app, 'PUT', base(salon), { url })).webhook.signingSecret;
      const rotated = (await adminOk(h.app, 'POST', `${base(salon)}/rotate-secret`)).webhook;
      assert.equal(rotated.url, url);
      assert.ok(rotated.signingSecret && rotated.signingSecret !== old);
      assert.equal((await adminOk(h.app, 'GET', base(salon))).webhook.signingSecret, undefined);
      const booking = await createOk(h, salon, { service: salon.manualService });
      await waitForFinal(h.db, booking.bookingId, 1);
      const [got] = receiver.at(path);
      assert.ok(got && verifySignature(rotated.signingSecret, got.body, got.headers['x-service-signature']));

      const removed = (await adminOk(h.app, 'DELETE', base(salon))).webhook;
      assert.equal(removed.url, url);
      assert.equal(removed.signingSecret, undefined);
      expectError(await admin(h.app, 'GET', base(salon)), 404, 'webhook.not_configured');
    });
  });
}
