import type { components } from './generated/openapi.ts';

/** A webhook payload as the API documents it (one element of `GET /v1/bookings/{id}/events`). */
export type WebhookEvent = components['schemas']['BookingEvent'];

export type WebhookScheme = 'x-service' | 'standard-webhooks';

export type HeaderBag = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** the signing secret shown once by `PUT /v1/webhooks/config` or rotate-secret (64 hex characters) */
  secret: string;
  /** the request body exactly as received: bytes or their text, never re-serialised JSON */
  body: Uint8Array | string;
  headers: HeaderBag;
  /**
   * Standard Webhooks only: how far `webhook-timestamp` (the attempt's send time, signed with the
   * body) may be from now, in seconds; default 300, as the Standard Webhooks libraries. The
   * X-Service-* scheme signs no time (its timestamp is the event's, the same on every retry and
   * redelivery), so a replay there is caught by de-duplicating `deliveryId`.
   */
  toleranceSeconds?: number;
  /** which headers to check; by default Standard Webhooks when `webhook-signature` is present (it also signs the time), else X-Service-* */
  scheme?: WebhookScheme;
  /** the current time, for tests */
  now?: Date;
}

export interface VerifiedWebhook {
  /** the payload's deliveryId: de-duplicate on it */
  deliveryId: string;
  event: WebhookEvent;
  scheme: WebhookScheme;
  /** X-Service-Attempt when sent (1, 2, 3, more for a redelivery); informational, it is not signed */
  attempt: number | undefined;
}

export type WebhookFailure =
  | 'missing_headers'
  | 'invalid_signature'
  | 'timestamp_out_of_tolerance'
  | 'invalid_timestamp'
  | 'invalid_payload'
  | 'delivery_id_mismatch';

/** A delivery that must be refused (answer 401: the API does not retry it). */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookFailure,
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
const encoder = new TextEncoder();

function header(headers: HeaderBag, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

function hexBytes(hex: string): Uint8Array | undefined {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function base64Bytes(b64: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return undefined;
  const bin = atob(b64);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/**
 * The HMAC key of the Standard Webhooks signature: the secret's text, the same key bytes as the
 * X-Service-* signature's (docs/webhooks.md). The `whsec_` form a Standard Webhooks library stores
 * (`whsec_` + base64 of those bytes) is taken too.
 */
export function standardWebhooksKey(secret: string): Uint8Array {
  const bytes = secret.startsWith('whsec_') ? base64Bytes(secret.slice('whsec_'.length)) : encoder.encode(secret);
  if (!bytes || bytes.length === 0) throw new TypeError('the signing secret is empty or its whsec_ form is not base64');
  return bytes;
}

function hmacKey(raw: Uint8Array): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey('raw', raw as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

// subtle.verify compares in constant time: no early exit on the first differing byte
function hmacMatches(key: CryptoKey, signature: Uint8Array, data: Uint8Array): Promise<boolean> {
  return globalThis.crypto.subtle.verify('HMAC', key, signature as BufferSource, data as BufferSource);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function checkTimestamp(ms: number, opts: VerifyWebhookOptions): void {
  const tolerance = (opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS) * 1000;
  const now = (opts.now ?? new Date()).getTime();
  if (Math.abs(now - ms) > tolerance) {
    throw new WebhookVerificationError('timestamp_out_of_tolerance', 'the delivery timestamp is outside the tolerance');
  }
}

interface Signed {
  id: string;
  /** the attempt's signed send time (Standard Webhooks); X-Service-* signs none */
  timestampMs: number | undefined;
}

/** `X-Service-Signature: sha256=<hex HMAC-SHA256 of the body>`, keyed by the secret's text. */
async function verifyXService(opts: VerifyWebhookOptions, body: Uint8Array): Promise<Signed> {
  const signature = header(opts.headers, 'x-service-signature');
  const id = header(opts.headers, 'x-service-delivery-id');
  if (!signature || !id) {
    throw new WebhookVerificationError('missing_headers', 'X-Service-Signature and X-Service-Delivery-Id are required');
  }
  const given = signature.startsWith('sha256=') ? hexBytes(signature.slice('sha256='.length)) : undefined;
  const key = await hmacKey(encoder.encode(opts.secret));
  if (!given || !(await hmacMatches(key, given, body))) {
    throw new WebhookVerificationError('invalid_signature', 'the signature does not match the body and secret');
  }
  return { id, timestampMs: undefined };
}

/** Standard Webhooks: `webhook-signature` holds `v1,<base64 HMAC of "{id}.{timestamp}.{body}">` entries. */
async function verifyStandard(opts: VerifyWebhookOptions, body: Uint8Array): Promise<Signed> {
  const signatures = header(opts.headers, 'webhook-signature');
  const id = header(opts.headers, 'webhook-id');
  const timestamp = header(opts.headers, 'webhook-timestamp');
  if (!signatures || !id || !timestamp) {
    throw new WebhookVerificationError('missing_headers', 'webhook-id, webhook-timestamp and webhook-signature are required');
  }
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not Unix seconds');
  const key = await hmacKey(standardWebhooksKey(opts.secret));
  const signed = concat(encoder.encode(`${id}.${timestamp}.`), body);
  let matched = false;
  // space-separated, one per secret during a rotation; versions other than v1 are not ours to judge
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',', 2);
    const given = version === 'v1' && value ? base64Bytes(value) : undefined;
    if (given && (await hmacMatches(key, given, signed))) matched = true;
  }
  if (!matched) throw new WebhookVerificationError('invalid_signature', 'no v1 signature matches the body and secret');
  return { id, timestampMs: Number(timestamp) * 1000 };
}

/**
 * Verifies one delivery (signature in constant time, then the delivery id and, for Standard
 * Webhooks, the signed send time) and returns its parsed payload. Throws WebhookVerificationError
 * for anything to refuse.
 */
export async function verifyWebhook(opts: VerifyWebhookOptions): Promise<VerifiedWebhook> {
  const body = typeof opts.body === 'string' ? encoder.encode(opts.body) : opts.body;
  const scheme = opts.scheme ?? (header(opts.headers, 'webhook-signature') ? 'standard-webhooks' : 'x-service');
  const { id, timestampMs } = scheme === 'standard-webhooks' ? await verifyStandard(opts, body) : await verifyXService(opts, body);
  let event: WebhookEvent;
  try {
    event = JSON.parse(new TextDecoder().decode(body)) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'the body is not JSON');
  }
  // the X-Service signature does not cover the id header: the id to trust is the body's
  if (event?.deliveryId !== id)
    throw new WebhookVerificationError('delivery_id_mismatch', 'the delivery id header differs from the payload');
  if (timestampMs !== undefined) checkTimestamp(timestampMs, opts);
  const attempt = Number(header(opts.headers, 'x-service-attempt') ?? Number.NaN);
  return { deliveryId: event.deliveryId, event, scheme, attempt: Number.isInteger(attempt) ? attempt : undefined };
}
