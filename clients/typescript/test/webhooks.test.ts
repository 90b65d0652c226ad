/**
 * verifyWebhook on real deliveries: the started server sends them to a real receiver, the helper
 * verifies what arrived byte for byte. The Standard Webhooks side is also checked against the
 * spec's reference library (`standardwebhooks`) signing the same delivery.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { ServiceProcess } from '../../../test/helpers/api-process.ts';
import { type Received, WebhookReceiver } from '../../../test/helpers/webhook-receiver.ts';
import { type BookingClient, createBookingClient, newIdempotencyKey, verifyWebhook, WebhookVerificationError } from '../src/index.ts';
import { createSalon, daysFromNow, type Salon, startServer } from './server.ts';

/** The rejection reason of a verification that must fail. */
async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => assert.fail('verified a delivery it must refuse'),
    (err: unknown) => err,
  );
  assert.ok(e instanceof WebhookVerificationError, String(e));
  return e.reason;
}

/** Our secret in the spec's own form: `whsec_` + base64 of the key bytes. */
const whsec = (secretHex: string) => `whsec_${Buffer.from(secretHex, 'hex').toString('base64')}`;

describe('verifyWebhook on deliveries of a started server', () => {
  let server: ServiceProcess;
  let receiver: WebhookReceiver;
  let salon: Salon;
  let client: BookingClient;
  let secret: string;
  let deliveries: Received[];

  before(async () => {
    [server, receiver] = await Promise.all([startServer('client-webhooks'), WebhookReceiver.start()]);
    salon = await createSalon(server);
    client = createBookingClient({ baseUrl: server.url!, apiKey: salon.apiKey });
    const hook = receiver.path('client');
    const configured = await client.raw.PUT('/v1/webhooks/config', {
      params: { query: { salonSlug: salon.salonSlug }, header: { 'idempotency-key': newIdempotencyKey() } },
      body: { url: hook.url },
    });
    assert.ok(configured.data?.data.webhook.signingSecret, JSON.stringify(configured.error));
    secret = configured.data.data.webhook.signingSecret;

    const where = { salonSlug: salon.salonSlug, locationSlug: salon.locationSlug };
    const service = (await client.listServices(where)).data.services[0]!;
    const slot = (
      await client.searchAvailability({ ...where, serviceId: service.id, dateRange: { from: daysFromNow(1), to: daysFromNow(7) } })
    ).data.slots[0];
    assert.ok(slot && 'startTime' in slot);
    await client.createBooking({
      ...where,
      serviceId: service.id,
      slot: { date: slot.date, startTime: slot.startTime },
      guest: { name: 'Kiss Éva', phone: '+36301234567' },
      consent: {
        privacyNoticeVersion: '1',
        termsVersion: '1',
        locale: 'hu',
        acceptedAt: new Date().toISOString(),
        policyConsentGiven: true,
      },
    });
    // automatic acceptance: booking.requested, then booking.confirmed
    await receiver.waitFor(() => receiver.at(hook.path).length >= 2, 30_000, 'two deliveries');
    deliveries = receiver.at(hook.path);
  });
  after(async () => {
    await server?.stop();
    await receiver?.close();
  });

  test('X-Service-*: every real delivery verifies and gives its event and delivery id', async () => {
    const events = [];
    for (const d of deliveries) {
      const v = await verifyWebhook({ secret, body: d.body, headers: d.headers, scheme: 'x-service' });
      assert.equal(v.scheme, 'x-service');
      assert.equal(v.deliveryId, d.headers['x-service-delivery-id']);
      assert.equal(v.event.event, d.headers['x-service-event']);
      assert.equal(v.attempt, 1);
      events.push(v.event.event);
    }
    assert.deepEqual(events.sort(), ['booking.confirmed', 'booking.requested']);
    // the body as text verifies the same, and a Headers object does as well as Node's header record
    const d = deliveries[0]!;
    const headers = new Headers(Object.entries(d.headers).map(([k, v]) => [k, String(v)]));
    assert.equal(
      (await verifyWebhook({ secret, body: d.body.toString('utf8'), headers, scheme: 'x-service' })).deliveryId,
      headers.get('x-service-delivery-id'),
    );
  });

  test('X-Service-*: a changed body, another secret, another delivery id or a stale timestamp is refused', async () => {
    const d = deliveries[0]!;
    const tampered = Buffer.from(d.body.toString('utf8').replace('"salonSlug":"', '"salonSlug":"x'));
    assert.equal(await refusal(verifyWebhook({ secret, body: tampered, headers: d.headers, scheme: 'x-service' })), 'invalid_signature');
    const otherSecret = 'ab'.repeat(32);
    assert.equal(
      await refusal(verifyWebhook({ secret: otherSecret, body: d.body, headers: d.headers, scheme: 'x-service' })),
      'invalid_signature',
    );
    const otherId = { ...d.headers, 'x-service-delivery-id': '0'.repeat(32) };
    assert.equal(await refusal(verifyWebhook({ secret, body: d.body, headers: otherId, scheme: 'x-service' })), 'delivery_id_mismatch');
    const { 'x-service-signature': _, ...unsigned } = d.headers;
    assert.equal(await refusal(verifyWebhook({ secret, body: d.body, headers: unsigned, scheme: 'x-service' })), 'missing_headers');

    const anHourOn = new Date(Date.now() + 3600_000);
    assert.equal(
      await refusal(verifyWebhook({ secret, body: d.body, headers: d.headers, scheme: 'x-service', now: anHourOn })),
      'timestamp_out_of_tolerance',
    );
    // a receiver that takes late redeliveries (which keep the first timestamp) widens the tolerance
    const late = await verifyWebhook({
      secret,
      body: d.body,
      headers: d.headers,
      scheme: 'x-service',
      now: anHourOn,
      toleranceSeconds: Infinity,
    });
    assert.equal(late.deliveryId, d.headers['x-service-delivery-id']);
  });

  test('Standard Webhooks: a real delivery signed by the reference library verifies, under either form of the secret', async () => {
    const d = deliveries[0]!;
    const id = String(d.headers['x-service-delivery-id']);
    const at = new Date(JSON.parse(d.body.toString('utf8')).timestamp);
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(whsec(secret)).sign(id, at, d.body.toString('utf8')),
    };
    for (const form of [secret, whsec(secret)]) {
      const v = await verifyWebhook({ secret: form, body: d.body, headers });
      assert.deepEqual([v.scheme, v.deliveryId], ['standard-webhooks', id]);
    }
    // several signatures (a rotation) pass when one matches; none matching is refused
    const rotating = { ...headers, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}` };
    assert.equal((await verifyWebhook({ secret, body: d.body, headers: rotating })).deliveryId, id);
    assert.equal(await refusal(verifyWebhook({ secret: 'ab'.repeat(32), body: d.body, headers })), 'invalid_signature');
    const retimed = { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) + 1) };
    assert.equal(await refusal(verifyWebhook({ secret, body: d.body, headers: retimed })), 'invalid_signature', 'the timestamp is signed');
    const hourAgo = new Date(Date.now() - 3600_000);
    const old = {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(hourAgo.getTime() / 1000)),
      'webhook-signature': new Webhook(whsec(secret)).sign(id, hourAgo, d.body.toString('utf8')),
    };
    assert.equal(await refusal(verifyWebhook({ secret, body: d.body, headers: old })), 'timestamp_out_of_tolerance');
  });

  test('Standard Webhooks: the headers the server sends on its deliveries verify', async (t) => {
    if (deliveries.some((d) => d.headers['webhook-signature'] === undefined)) {
      t.skip('the server sends no webhook-id/webhook-timestamp/webhook-signature headers yet (added on another branch)');
      return;
    }
    for (const d of deliveries) {
      const v = await verifyWebhook({ secret, body: d.body, headers: d.headers });
      assert.equal(v.scheme, 'standard-webhooks', 'with both sets of headers, Standard Webhooks is checked by default');
      assert.equal(v.deliveryId, d.headers['x-service-delivery-id']);
      assert.equal(d.headers['webhook-id'], v.deliveryId);
      assert.equal(Number(d.headers['webhook-timestamp']), Math.floor(Date.parse(v.event.timestamp) / 1000));
      // and the reference library agrees on the same bytes and key
      new Webhook(whsec(secret)).verify(d.body.toString('utf8'), d.headers as Record<string, string>);
    }
  });
});
