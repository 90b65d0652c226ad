import { decryptSigningSecret } from '../domain/webhooks/signing-secret.ts';
import type { Queryable } from './db.ts';

/** One business's webhook configuration; the secret only ever as its ciphertext. */
export interface WebhookConfigRow {
  url: string;
  secretCiphertext: string;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  url: string;
  secret_ciphertext: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'url, secret_ciphertext, created_at, updated_at';

function toConfig(r: Row): WebhookConfigRow {
  return { url: r.url, secretCiphertext: r.secret_ciphertext, createdAt: r.created_at, updatedAt: r.updated_at };
}

export async function findWebhookConfig(q: Queryable, businessId: string): Promise<WebhookConfigRow | undefined> {
  const r = await q.query<Row>(`SELECT ${COLUMNS} FROM webhook_configs WHERE business_id = $1`, [businessId]);
  return r.rows[0] ? toConfig(r.rows[0]) : undefined;
}

/**
 * The target of the next delivery attempt of a business: its current URL and current secret in
 * clear, or undefined when no webhook is configured (any more). The worker calls it at every attempt,
 * so a changed URL or a rotated secret applies to retries of older events too (spec, Events rule 8).
 * The one place that decrypts a stored secret; `serverSecret` is `app.ctx.serverSecret`.
 */
export async function getWebhookTarget(
  q: Queryable,
  businessId: string,
  serverSecret: Buffer,
): Promise<{ url: string; secret: string } | undefined> {
  const config = await findWebhookConfig(q, businessId);
  if (!config) return undefined;
  return { url: config.url, secret: decryptSigningSecret(serverSecret, config.secretCiphertext) };
}
