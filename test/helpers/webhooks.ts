/**
 * Shared set-up of the webhook delivery tests: a harness on an isolated database with test
 * delivery settings, a webhook config written directly (until the configuration routes are in
 * main), and waits on the delivery records.
 */
import type { Config } from '../../src/config.ts';
import { encryptSigningSecret, newSigningSecret } from '../../src/domain/webhooks/signing-secret.ts';
import type { Db } from '../../src/store/db.ts';
import { startWebhookWorker, type WebhookWorker, type WorkerOptions } from '../../src/webhooks/worker.ts';
import { BASE_NOW } from './bookings.ts';
import type { DbTarget } from './databases.ts';
import { startHarness, type Harness } from './harness.ts';

export const WEBHOOK_TEST_SETTINGS: Partial<Config> = {
  webhookAllowPrivateTargets: true,
  webhookRetryDelays: [
    { minMs: 20, maxMs: 40 },
    { minMs: 20, maxMs: 40 },
  ],
  webhookTimeoutMs: 600,
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

/** Writes the business's webhook config as the configuration route stores it; returns the secret. */
export async function configureWebhook(h: Harness, businessId: string, url: string, secret = newSigningSecret()): Promise<string> {
  await h.db.query(
    `INSERT INTO webhook_configs (business_id, url, secret_ciphertext) VALUES ($1, $2, $3)
     ON CONFLICT (business_id) DO UPDATE SET url = EXCLUDED.url, secret_ciphertext = EXCLUDED.secret_ciphertext, updated_at = now()`,
    [businessId, url, encryptSigningSecret(h.app.ctx.serverSecret, secret)],
  );
  return secret;
}

export async function deleteWebhook(h: Harness, businessId: string): Promise<void> {
  await h.db.query('DELETE FROM webhook_configs WHERE business_id = $1', [businessId]);
}

export interface DeliveryRow {
  delivery_id: string;
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
      `SELECT delivery_id, sequence, event, status, attempt_count, outcome, status_code, next_attempt_at, locked_until
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
