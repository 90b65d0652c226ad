import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Compact tamper-evident tokens: base64url(JSON) + "." + base64url(HMAC-SHA256), under a purpose
 * label so a token made for one use (a cursor) is never accepted for another (a slot token).
 */
export function signToken(secret: Buffer, purpose: string, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(secret, purpose, body)}`;
}

export function verifyToken<T>(secret: Buffer, purpose: string, token: string): T | undefined {
  if (typeof token !== 'string' || token.length > 4096) return undefined;
  const dot = token.indexOf('.');
  if (dot <= 0) return undefined;
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = Buffer.from(mac(secret, purpose, body), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

function mac(secret: Buffer, purpose: string, body: string): string {
  return createHmac('sha256', secret).update(purpose).update('.').update(body).digest('base64url');
}
