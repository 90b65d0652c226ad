import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findWebhookConfig } from '../src/store/webhook-configs.ts';
import type { WebhookWorker } from '../src/webhooks/worker.ts';
import { createOk } from './helpers/bookings.ts';
import { api, createSalon } from './helpers/fixtures.ts';
import type { Harness } from './helpers/harness.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { WebhookReceiver } from './helpers/webhook-receiver.ts';
import { createWebhook, testWorker, waitForFinal, webhookHarness } from './helpers/webhooks.ts';

for (const target of isolatedDbTargets()) {
  describe(`the webhook URL shown is the URL called [${target.name}]`, () => {
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

    test('a URL sent in another spelling: PUT, GET, the stored row and the request the receiver got are the same text', async () => {
      const salon = await createSalon(h.app);
      const { path } = receiver.path('as-used');
      const origin = `http://127.0.0.1:${receiver.port}`;
      // upper-case scheme, dot segments (one percent-encoded), non-ASCII in path and query
      const sent = `HTTP://127.0.0.1:${receiver.port}/x/..${path}/%2e/ü?q=ä`;
      const called = `${origin}${path}/%C3%BC?q=%C3%A4`;
      receiver.setBehaviour(`${path}/%C3%BC?q=%C3%A4`, () => ({ status: 204 }));

      const put = await api(h.app, salon.key.secret, 'PUT', `/webhooks/config?salonSlug=${salon.business.slug}`, { url: sent });
      assert.equal(put.status, 200, put.raw);
      const get = await api(h.app, salon.key.secret, 'GET', `/webhooks/config?salonSlug=${salon.business.slug}`);
      assert.equal(get.status, 200, get.raw);
      assert.equal(put.body.data.webhook.url, called);
      assert.equal(get.body.data.webhook.url, called);
      assert.equal((await findWebhookConfig(h.db, salon.business.id))?.url, called);

      const booking = await createOk(h, salon, { service: salon.manualService });
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.equal(row!.status, 'succeeded', JSON.stringify(row));
      const got = receiver.received.filter((r) => r.headers['x-service-delivery-id'] === row!.delivery_id);
      assert.equal(got.length, 1);
      assert.equal(`http://${got[0]!.headers.host}${got[0]!.path}`, called);
    });

    test('the spelling that sent deliveries elsewhere is refused; the configured URL stays', async () => {
      const salon = await createSalon(h.app);
      const { url: kept, path } = receiver.path('kept');
      await createWebhook(h, salon, kept);
      // WHATWG reads host evil.example (the path is "/@127.0.0.1:…"); RFC 3986 reads user "evil.example\" at 127.0.0.1
      const put = await api(h.app, salon.key.secret, 'PUT', `/webhooks/config?salonSlug=${salon.business.slug}`, {
        url: `http://evil.example\\@127.0.0.1:${receiver.port}${path}`,
      });
      assert.equal(put.status, 422, put.raw);
      assert.deepEqual([put.body.error.code, put.body.error.details], ['webhook.invalid_url', { rule: 'format' }]);
      const get = await api(h.app, salon.key.secret, 'GET', `/webhooks/config?salonSlug=${salon.business.slug}`);
      assert.equal(get.body.data.webhook.url, kept);
    });
  });
}
