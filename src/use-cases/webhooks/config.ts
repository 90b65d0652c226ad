import { AppError } from '../../domain/errors.ts';
import { toWebhookView, type WebhookView } from '../../domain/webhooks/config-view.ts';
import { encryptSigningSecret, newSigningSecret } from '../../domain/webhooks/signing-secret.ts';
import { checkWebhookUrl } from '../../domain/webhooks/url-rules.ts';
import type { Queryable } from '../../store/db.ts';
import {
  deleteWebhookConfig,
  failPendingDeliveries,
  findWebhookConfig,
  replaceWebhookSecret,
  upsertWebhookConfig,
} from '../../store/webhook-configs.ts';

/**
 * The webhook configuration of one business. The signing secret is in the view only where the
 * contract shows it once: the PUT that created the configuration, and rotate-secret.
 */

export interface WebhookResult {
  webhook: WebhookView;
}

export async function getWebhookConfig(q: Queryable, businessId: string): Promise<WebhookResult> {
  const config = await findWebhookConfig(q, businessId);
  if (!config) throw new AppError('webhook.not_configured');
  return { webhook: toWebhookView(config) };
}

export async function putWebhookConfig(
  tx: Queryable,
  p: { businessId: string; url: string; allowPrivateTargets: boolean; serverSecret: Buffer; now: Date },
): Promise<WebhookResult> {
  const check = checkWebhookUrl(p.url, { allowPrivateTargets: p.allowPrivateTargets });
  if (!check.ok) throw new AppError('webhook.invalid_url', `The webhook URL breaks the ${check.rule} rule.`, { rule: check.rule });
  const secret = newSigningSecret();
  // The normalised form: the text the worker will parse and call, so the one shown back is it.
  const { config, created } = await upsertWebhookConfig(tx, {
    businessId: p.businessId,
    url: check.url,
    secretCiphertext: encryptSigningSecret(p.serverSecret, secret),
    now: p.now,
  });
  return { webhook: toWebhookView(config, created ? secret : undefined) };
}

/** Returns the configuration as it was; deliveries still to be made end as failed. */
export async function removeWebhookConfig(tx: Queryable, businessId: string): Promise<WebhookResult> {
  const config = await deleteWebhookConfig(tx, businessId);
  if (!config) throw new AppError('webhook.not_configured');
  await failPendingDeliveries(tx, businessId);
  return { webhook: toWebhookView(config) };
}

export async function rotateWebhookSecret(
  tx: Queryable,
  p: { businessId: string; serverSecret: Buffer; now: Date },
): Promise<WebhookResult> {
  const secret = newSigningSecret();
  const config = await replaceWebhookSecret(tx, {
    businessId: p.businessId,
    secretCiphertext: encryptSigningSecret(p.serverSecret, secret),
    now: p.now,
  });
  if (!config) throw new AppError('webhook.not_configured');
  return { webhook: toWebhookView(config, secret) };
}
