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

/** Our secret in the spec's own form: `whsec_` + base64 of the key bytes, which are the secret's text. */
const whsec = (secret: string) => `whsec_${Buffer.from(secret, 'utf8').toString('base64')}`;

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

  test('X-Service-*: a changed body, another secret or another delivery id is refused', async () => {
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

    // The scheme signs no time and its timestamp is the event's, kept by retries and redeliveries:
    // no window applies, a replay is caught by de-duplicating deliveryId.
    const anHourOn = new Date(Date.now() + 3600_000);
    assert.equal((await verifyWebhook({ secret, body: d.body, headers: d.headers, scheme: 'x-service', now: anHourOn })).attempt, 1);
  });

  test('Standard Webhooks: a real delivery signed by the reference library verifies, under either form of the secret', async () => {
    const d = deliveries[0]!;
    const id = String(d.headers['x-service-delivery-id']);
    const body = d.body.toString('utf8');
    const signedAt = (at: Date) => ({
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret, { format: 'raw' }).sign(id, at, body),
    });
    const headers = signedAt(new Date());
    assert.equal(
      headers['webhook-signature'],
      new Webhook(whsec(secret)).sign(id, new Date(Number(headers['webhook-timestamp']) * 1000), body),
    );
    for (const form of [secret, whsec(secret)]) {
      const v = await verifyWebhook({ secret: form, body: d.body, headers });
      assert.deepEqual([v.scheme, v.deliveryId, v.event.deliveryId], ['standard-webhooks', id, id]);
    }
    // several signatures (a rotation) pass when one matches; none matching is refused
    const rotating = { ...headers, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}` };
    assert.equal((await verifyWebhook({ secret, body: d.body, headers: rotating })).deliveryId, id);
    assert.equal(await refusal(verifyWebhook({ secret: 'ab'.repeat(32), body: d.body, headers })), 'invalid_signature');
    const tampered = Buffer.from(body.replace('"salonSlug":"', '"salonSlug":"x'));
    assert.equal(await refusal(verifyWebhook({ secret, body: tampered, headers })), 'invalid_signature');
    const retimed = { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) + 1) };
    assert.equal(await refusal(verifyWebhook({ secret, body: d.body, headers: retimed })), 'invalid_signature', 'the time is signed');
    // the signed send time must be near the receiver's clock: 5 minutes unless configured
    const tenMinutesAgo = signedAt(new Date(Date.now() - 600_000));
    assert.equal(await refusal(verifyWebhook({ secret, body: d.body, headers: tenMinutesAgo })), 'timestamp_out_of_tolerance');
    assert.equal((await verifyWebhook({ secret, body: d.body, headers: tenMinutesAgo, toleranceSeconds: 900 })).deliveryId, id);
    const inTheFuture = signedAt(new Date(Date.now() + 600_000));
    assert.equal(await refusal(verifyWebhook({ secret, body: d.body, headers: inTheFuture })), 'timestamp_out_of_tolerance');
  });

  test('Standard Webhooks: the headers the server sends on its deliveries verify', async () => {
    assert.ok(deliveries.length > 0);
    for (const d of deliveries) {
      const v = await verifyWebhook({ secret, body: d.body, headers: d.headers });
      assert.equal(v.scheme, 'standard-webhooks', 'with both sets of headers, Standard Webhooks is checked by default');
      assert.equal(v.attempt, 1);
      assert.equal(v.deliveryId, d.headers['x-service-delivery-id']);
      assert.equal(d.headers['webhook-id'], v.deliveryId);
      // the attempt's send time (docs/webhooks.md), so within seconds of its arrival
      assert.ok(Math.abs(Number(d.headers['webhook-timestamp']) * 1000 - d.at) < 60_000, String(d.headers['webhook-timestamp']));
      // and the reference library agrees on the same bytes and key
      new Webhook(secret, { format: 'raw' }).verify(d.body.toString('utf8'), d.headers as Record<string, string>);
    }
  });
});
