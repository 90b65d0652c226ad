import { decryptSigningSecret } from '../domain/webhooks/signing-secret.ts';
import type { Queryable } from './db.ts';

/**
 * The worker's read of a business's current webhook target (URL and decrypted secret), at every
 * attempt so that a changed URL or a rotated secret applies to retries. Stand-in until
 * `getWebhookTarget` of src/store/webhook-configs.ts (the configuration routes' module) is merged.
 */
export async function readWebhookTarget(
  q: Queryable,
  serverSecret: Buffer,
  businessId: string,
): Promise<{ url: string; secret: string } | undefined> {
  const r = await q.query<{ url: string; secret_ciphertext: string }>(
    'SELECT url, secret_ciphertext FROM webhook_configs WHERE business_id = $1',
    [businessId],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  return { url: row.url, secret: decryptSigningSecret(serverSecret, row.secret_ciphertext) };
}
