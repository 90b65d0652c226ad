import { decryptSigningSecret, encryptSigningSecret } from './signing-secret.ts';

/** `data.webhook` of the configuration endpoints (decisions.md, "Webhooks"). */
export interface WebhookView {
  url: string;
  createdAt: string;
  updatedAt: string;
  /** only in the response of the first successful PUT and of rotate-secret */
  signingSecret?: string;
}

export function toWebhookView(c: { url: string; createdAt: Date; updatedAt: Date }, signingSecret?: string): WebhookView {
  return {
    url: c.url,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    ...(signingSecret === undefined ? {} : { signingSecret }),
  };
}

interface SealedView extends Omit<WebhookView, 'signingSecret'> {
  signingSecretSealed?: string;
}

/**
 * The idempotency record of a PUT or rotate keeps its response for replays; the secret in it is
 * stored encrypted (like the configuration's own copy), never in clear, and decrypted again when a
 * client whose first response was lost retries with the same key.
 */
export function sealWebhookSecret(serverSecret: Buffer, data: { webhook: WebhookView }): { webhook: SealedView } {
  const { signingSecret, ...rest } = data.webhook;
  if (signingSecret === undefined) return { webhook: rest };
  return { webhook: { ...rest, signingSecretSealed: encryptSigningSecret(serverSecret, signingSecret) } };
}

export function unsealWebhookSecret(serverSecret: Buffer, stored: unknown): { webhook: WebhookView } {
  const { signingSecretSealed, ...rest } = (stored as { webhook: SealedView }).webhook;
  if (signingSecretSealed === undefined) return { webhook: rest };
  return { webhook: { ...rest, signingSecret: decryptSigningSecret(serverSecret, signingSecretSealed) } };
}
