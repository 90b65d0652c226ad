import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets are stored encrypted (AES-256-GCM under a key derived from the server
 * secret) so that a later read of the configuration cannot reveal them, while the worker, which
 * must sign with the current secret on every attempt, can still recover them.
 */
const PURPOSE = 'webhook-signing-secret.v1';

function keyOf(serverSecret: Buffer): Buffer {
  return createHmac('sha256', serverSecret).update(PURPOSE).digest();
}

/** 32 random bytes as 64 lowercase hex characters: the value shown to the integrator once. */
export function newSigningSecret(): string {
  return randomBytes(32).toString('hex');
}

/** `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function encryptSigningSecret(serverSecret: Buffer, secretHex: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(serverSecret), iv);
  const ct = Buffer.concat([cipher.update(secretHex, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

export function decryptSigningSecret(serverSecret: Buffer, stored: string): string {
  const [version, iv, tag, ct] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || ct === undefined) throw new Error('unknown webhook secret format');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(serverSecret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}

/** `X-Service-Signature` value: `sha256=` + hex HMAC-SHA256 of the raw body bytes. */
export function signatureHeader(secretHex: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secretHex).update(body).digest('hex')}`;
}

/**
 * `webhook-signature` value of the Standard Webhooks scheme (standardwebhooks.com): `v1,` + base64
 * HMAC-SHA256 of `{id}.{timestamp}.{body}`. The key is the same bytes as X-Service-Signature's (the
 * secret's 64 characters as ASCII), so an integrator keeps one secret for both schemes; the
 * official libraries take those bytes as `new Webhook(secret, { format: 'raw' })` or as
 * `whsec_` + their base64 (docs/webhooks.md).
 */
export function standardWebhookSignature(secretHex: string, id: string, unixSeconds: number, body: string | Buffer): string {
  const mac = createHmac('sha256', secretHex).update(`${id}.${unixSeconds}.`).update(body);
  return `v1,${mac.digest('base64')}`;
}
