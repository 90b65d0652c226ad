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
 * Creates or updates the configuration in one statement, so two concurrent first PUTs cannot both
 * create it: `created` is true only for the one that inserted, the only response that shows the
 * secret. An update changes the URL and keeps the secret; `updated_at` moves only when the URL
 * actually changes.
 */
export async function upsertWebhookConfig(
  q: Queryable,
  c: { businessId: string; url: string; secretCiphertext: string; now: Date },
): Promise<{ config: WebhookConfigRow; created: boolean }> {
  const r = await q.query<Row & { created: boolean }>(
    `INSERT INTO webhook_configs AS w (business_id, url, secret_ciphertext, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (business_id) DO UPDATE
        SET url = EXCLUDED.url,
            updated_at = CASE WHEN w.url = EXCLUDED.url THEN w.updated_at ELSE EXCLUDED.updated_at END
     RETURNING ${COLUMNS}, (xmax = 0) AS created`,
    [c.businessId, c.url, c.secretCiphertext, c.now],
  );
  const row = r.rows[0]!;
  return { config: toConfig(row), created: row.created };
}

/** Replaces the secret; undefined when no webhook is configured. */
export async function replaceWebhookSecret(
  q: Queryable,
  c: { businessId: string; secretCiphertext: string; now: Date },
): Promise<WebhookConfigRow | undefined> {
  const r = await q.query<Row>(
    `UPDATE webhook_configs SET secret_ciphertext = $2, updated_at = $3 WHERE business_id = $1 RETURNING ${COLUMNS}`,
    [c.businessId, c.secretCiphertext, c.now],
  );
  return r.rows[0] ? toConfig(r.rows[0]) : undefined;
}

/** Removes the configuration; returns it as it was, or undefined when there was none. */
export async function deleteWebhookConfig(q: Queryable, businessId: string): Promise<WebhookConfigRow | undefined> {
  const r = await q.query<Row>(`DELETE FROM webhook_configs WHERE business_id = $1 RETURNING ${COLUMNS}`, [businessId]);
  return r.rows[0] ? toConfig(r.rows[0]) : undefined;
}

/**
 * Ends every delivery of the business that is still to be made or in flight as `failed` (the
 * webhook was disabled): they are not retried and the log says so. Returns how many.
 */
export async function failPendingDeliveries(q: Queryable, businessId: string): Promise<number> {
  const r = await q.query(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, locked_until = NULL
      WHERE business_id = $1 AND status IN ('pending', 'processing', 'retry_scheduled')`,
    [businessId],
  );
  return r.rowCount;
}
