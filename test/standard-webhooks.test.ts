/**
 * The Standard Webhooks headers (docs/webhooks.md "Verify with a Standard Webhooks library"),
 * checked with the official `standardwebhooks` package on real deliveries: the worker's first
 * attempts and retries and the public redelivery, received by a real HTTP server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { WebhookWorker } from '../src/webhooks/worker.ts';
import { createOk, sql } from './helpers/bookings.ts';
import { api, createSalon } from './helpers/fixtures.ts';
import type { Harness } from './helpers/harness.ts';
import { isolatedDbTargets } from './helpers/isolated-databases.ts';
import { type Received, verifySignature, WebhookReceiver } from './helpers/webhook-receiver.ts';
import { attemptsOf, createWebhook, testWorker, waitForFinal, webhookHarness } from './helpers/webhooks.ts';

/** The two ways docs/webhooks.md gives to hand our secret to the official library. */
function verifiers(secret: string): Array<[string, Webhook]> {
  return [
    ["new Webhook(secret, { format: 'raw' })", new Webhook(secret, { format: 'raw' })],
    ['new Webhook(whsec_ + base64(secret))', new Webhook(`whsec_${Buffer.from(secret, 'utf8').toString('base64')}`)],
  ];
}

function headersOf(r: Received): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** Verifies one received delivery with both constructions; returns what the library parsed. */
function verifyAll(secret: string, r: Received): unknown {
  let parsed: unknown;
  for (const [how, wh] of verifiers(secret)) {
    parsed = wh.verify(r.body.toString('utf8'), headersOf(r));
    assert.deepEqual(parsed, JSON.parse(r.body.toString('utf8')), how);
  }
  return parsed;
}

for (const target of isolatedDbTargets()) {
  describe(`Standard Webhooks headers, verified with the official package [${target.name}]`, () => {
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

    test("a first attempt and its retry verify; webhook-id is the deliveryId and webhook-timestamp each attempt's send time", async () => {
      const salon = await createSalon(h.app);
      const { url, path } = receiver.path('standard', (attempt) => ({ status: attempt === 1 ? 503 : 200 }));
      const secret = await createWebhook(h, salon, url);
      const booking = await createOk(h, salon, { service: salon.manualService });
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      assert.equal(row!.status, 'succeeded');

      const got = receiver.at(path);
      assert.equal(got.length, 2, 'a first attempt and one retry');
      const attempts = await attemptsOf(h.db, row!.delivery_id);
      for (const [i, r] of got.entries()) {
        verifyAll(secret, r);
        assert.equal(r.headers['webhook-id'], row!.delivery_id);
        assert.equal(r.headers['webhook-id'], r.headers['x-service-delivery-id']);
        assert.equal(r.headers['webhook-timestamp'], String(Math.floor(attempts[i]!.started_at.getTime() / 1000)));
        // The X-Service scheme is untouched beside it.
        assert.ok(verifySignature(secret, r.body, r.headers['x-service-signature']));
      }
      // The event's timestamp (the harness clock, in 2031) stays in the body and X-Service-Timestamp;
      // as webhook-timestamp the library would refuse it as too new.
      const payload = JSON.parse(got[0]!.body.toString('utf8'));
      assert.equal(got[1]!.headers['x-service-timestamp'], payload.timestamp);
      assert.ok(Date.parse(payload.timestamp) > Date.now() + 3_600_000);
    });

    test('a redelivery of an event hours old verifies, its body and X-Service-Timestamp keeping the old timestamp', async () => {
      const salon = await createSalon(h.app);
      const { url, path } = receiver.path('standard-old');
      const secret = await createWebhook(h, salon, url);
      const booking = await createOk(h, salon, { service: salon.manualService });
      const [row] = await waitForFinal(h.db, booking.bookingId, 1);
      // Ages the stored event: its timestamp becomes three hours before the library's clock.
      const [event] = await sql(h, 'SELECT payload FROM booking_events WHERE delivery_id = $1', [row!.delivery_id]);
      const old = new Date(Date.now() - 3 * 3_600_000).toISOString();
      const aged = event.payload.replace(/"timestamp":"[^"]+"/, `"timestamp":"${old}"`);
      assert.notEqual(aged, event.payload);
      await sql(h, 'UPDATE booking_events SET payload = $2 WHERE delivery_id = $1', [row!.delivery_id, aged]);

      const r = await api(h.app, salon.key.secret, 'POST', `/webhooks/deliveries/${row!.delivery_id}/redeliver`);
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.delivery.attemptCount, 2);
      const sent = receiver.at(path)[1]!;
      assert.equal(sent.body.toString('utf8'), aged, 'the stored bytes');
      assert.equal(sent.headers['x-service-timestamp'], old);
      const parsed = verifyAll(secret, sent) as { timestamp: string };
      assert.equal(parsed.timestamp, old);
      assert.ok(Math.abs(Number(sent.headers['webhook-timestamp']) - Date.now() / 1000) < 60, 'the send time');

      // The event's own time in webhook-timestamp is what the library refuses: why it is not used.
      const asEventTime = { ...headersOf(sent), 'webhook-timestamp': String(Math.floor(Date.parse(old) / 1000)) };
      assert.throws(() => new Webhook(secret, { format: 'raw' }).verify(aged, asEventTime), WebhookVerificationError);
    });

    test('a tampered body, a changed webhook-id or timestamp, or another secret fails verification', async () => {
      const salon = await createSalon(h.app);
      const { url, path } = receiver.path('standard-tamper');
      const secret = await createWebhook(h, salon, url);
      const booking = await createOk(h, salon, { service: salon.manualService });
      await waitForFinal(h.db, booking.bookingId, 1);
      const [got] = receiver.at(path);
      verifyAll(secret, got!);

      const body = got!.body.toString('utf8');
      const headers = headersOf(got!);
      const tampered = body.replace('"booking.requested"', '"booking.confirmed"');
      assert.notEqual(tampered, body);
      const ts = Number(headers['webhook-timestamp']);
      for (const [how, wh] of verifiers(secret)) {
        assert.throws(() => wh.verify(tampered, headers), WebhookVerificationError, `${how}: tampered body`);
        assert.throws(() => wh.verify(`${body} `, headers), WebhookVerificationError, `${how}: a byte added`);
        assert.throws(() => wh.verify(body, { ...headers, 'webhook-id': '0'.repeat(32) }), WebhookVerificationError, `${how}: id`);
        assert.throws(() => wh.verify(body, { ...headers, 'webhook-timestamp': String(ts + 1) }), WebhookVerificationError, `${how}: ts`);
      }
      const other = 'a'.repeat(64);
      assert.throws(() => new Webhook(other, { format: 'raw' }).verify(body, headers), WebhookVerificationError, 'another secret');
      // The hex-decoded 32 bytes are not the key either: the secret is used as the text it is.
      const hexKey = new Webhook(`whsec_${Buffer.from(secret, 'hex').toString('base64')}`);
      assert.throws(() => hexKey.verify(body, headers), WebhookVerificationError);
    });
  });
}
