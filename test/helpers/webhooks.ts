/**
 * Shared set-up of the webhook delivery tests: a harness on an isolated database with test
 * delivery settings, the webhook configured through its routes (or written directly where the URL
 * rules would refuse it), and waits on the delivery records.
 */
import assert from 'node:assert/strict';
import type { Config } from '../../src/config.ts';
import { encryptSigningSecret, newSigningSecret } from '../../src/domain/webhooks/signing-secret.ts';
import type { Db } from '../../src/store/db.ts';
import { startWebhookWorker, type WebhookWorker, type WorkerOptions } from '../../src/webhooks/worker.ts';
import { BASE_NOW, createOk } from './bookings.ts';
import type { DbTarget } from './databases.ts';
import { api, type SalonFixture } from './fixtures.ts';
import { startHarness, type Harness } from './harness.ts';
import type { WebhookReceiver } from './webhook-receiver.ts';

export const WEBHOOK_TEST_SETTINGS: Partial<Config> = {
  webhookAllowPrivateTargets: true,
  webhookRetryDelays: [
    { minMs: 20, maxMs: 40 },
    { minMs: 20, maxMs: 40 },
  ],
  // short for the hanging-receiver cases, long enough that a loaded machine does not time out a
  // receiver that answers at once
  webhookTimeoutMs: 1500,
};

/** A booking harness (clock at BASE_NOW) with the webhook test settings. */
export async function webhookHarness(target: DbTarget, overrides: Partial<Config> = {}): Promise<Harness> {
  const h = await startHarness(target, { ...WEBHOOK_TEST_SETTINGS, ...overrides });
  h.clock.now = new Date(BASE_NOW);
  return h;
}

export function testWorker(h: Harness, opts: Partial<WorkerOptions> = {}): Promise<WebhookWorker> {
  return startWebhookWorker({ db: h.db, config: h.app.ctx.config, pollIntervalMs: 200, ...opts });
}

function webhookUrl(salon: SalonFixture, suffix = ''): string {
  return `/webhooks/config${suffix}?salonSlug=${encodeURIComponent(salon.business.slug)}`;
}

/** PUT /v1/webhooks/config; returns the signing secret when this PUT created the webhook. */
export async function configureWebhook(h: Harness, salon: SalonFixture, url: string): Promise<string | undefined> {
  const r = await api(h.app, salon.key.secret, 'PUT', webhookUrl(salon), { url });
  assert.equal(r.status, 200, r.raw);
  return r.body.data.webhook.signingSecret;
}

/** A new webhook; returns its secret. */
export async function createWebhook(h: Harness, salon: SalonFixture, url: string): Promise<string> {
  const secret = await configureWebhook(h, salon, url);
  assert.ok(secret, 'the first PUT shows the secret');
  return secret;
}

export async function rotateSecret(h: Harness, salon: SalonFixture): Promise<string> {
  const r = await api(h.app, salon.key.secret, 'POST', webhookUrl(salon, '/rotate-secret'));
  assert.equal(r.status, 200, r.raw);
  return r.body.data.webhook.signingSecret;
}

export async function deleteWebhook(h: Harness, salon: SalonFixture): Promise<void> {
  const r = await api(h.app, salon.key.secret, 'DELETE', webhookUrl(salon));
  assert.equal(r.status, 200, r.raw);
}

/**
 * Writes a webhook row directly, past the URL rules: stands for a configuration stored under other
 * rules or a name whose addresses changed since, which only the connect-time check can stop.
 */
export async function storeWebhookRow(h: Harness, businessId: string, url: string, secret = newSigningSecret()): Promise<string> {
  await h.db.query(
    `INSERT INTO webhook_configs (business_id, url, secret_ciphertext) VALUES ($1, $2, $3)
     ON CONFLICT (business_id) DO UPDATE SET url = EXCLUDED.url, secret_ciphertext = EXCLUDED.secret_ciphertext, updated_at = now()`,
    [businessId, url, encryptSigningSecret(h.app.ctx.serverSecret, secret)],
  );
  return secret;
}

export interface DeliveryRow {
  delivery_id: string;
  business_id: string;
  sequence: number;
  event: string;
  status: string;
  attempt_count: number;
  outcome: string | null;
  status_code: number | null;
  next_attempt_at: Date | null;
  locked_until: Date | null;
}

export async function deliveriesOf(db: Db, bookingId: string): Promise<DeliveryRow[]> {
  return (
    await db.query<DeliveryRow>(
      `SELECT delivery_id, business_id, sequence, event, status, attempt_count, outcome, status_code, next_attempt_at, locked_until
         FROM webhook_deliveries WHERE booking_id = $1 ORDER BY sequence`,
      [bookingId],
    )
  ).rows;
}

export interface AttemptRow {
  attempt: number;
  started_at: Date;
  duration_ms: number;
  outcome: string;
  status_code: number | null;
  error: string | null;
}

export async function attemptsOf(db: Db, deliveryId: string): Promise<AttemptRow[]> {
  return (
    await db.query<AttemptRow>(
      'SELECT attempt, started_at, duration_ms, outcome, status_code, error FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt',
      [deliveryId],
    )
  ).rows;
}

const FINAL = new Set(['succeeded', 'failed', 'exhausted']);

/** Waits until every delivery of the booking is final (or `count` of them exist and are final). */
export async function waitForFinal(db: Db, bookingId: string, count: number, timeoutMs = 15_000): Promise<DeliveryRow[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await deliveriesOf(db, bookingId);
    if (rows.length >= count && rows.every((r) => FINAL.has(r.status))) return rows;
    if (Date.now() > until) throw new Error(`deliveries not final after ${timeoutMs} ms: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A manual-service booking (one event) whose three automatic attempts all got a 500 at `path` of
 * the receiver (which the caller set to answer so): its delivery, exhausted; returns its id.
 */
export async function exhaustedDelivery(h: Harness, receiver: WebhookReceiver, salon: SalonFixture, path: string): Promise<string> {
  const booking = await createOk(h, salon, { service: salon.manualService });
  const [row] = await waitForFinal(h.db, booking.bookingId, 1);
  assert.equal(row!.status, 'exhausted');
  assert.equal(row!.attempt_count, 3);
  assert.equal(receiver.at(path).length, 3);
  return row!.delivery_id;
}
