import { createHash, timingSafeEqual } from 'node:crypto';
import { randomToken } from './ids.ts';

/**
 * Key format: `bka_` + 32 random base62 characters + 6-character checksum. The prefix makes leaked
 * keys recognisable to secret scanners; the checksum rejects typos and garbage without a
 * database round trip. Only the SHA-256 of the whole key is stored.
 */
const PREFIX = 'bka_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY = 32;
const CHECK = 6;
const SHAPE = new RegExp(`^${PREFIX}[0-9A-Za-z]{${BODY + CHECK}}$`);

function checksum(body: string): string {
  const digest = createHash('sha256').update(body).digest();
  let out = '';
  for (let i = 0; i < CHECK; i++) out += BASE62[digest[i]! % 62];
  return out;
}

export function generateApiKeySecret(): { secret: string; prefix: string; hash: string } {
  const body = randomToken(BODY, BASE62);
  const secret = `${PREFIX}${body}${checksum(body)}`;
  return { secret, prefix: secret.slice(0, PREFIX.length + 6), hash: hashSecret(secret) };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Shape and checksum only; says nothing about whether the key exists. */
export function isWellFormedApiKey(secret: string): boolean {
  if (!SHAPE.test(secret)) return false;
  const body = secret.slice(PREFIX.length, PREFIX.length + BODY);
  const given = Buffer.from(secret.slice(PREFIX.length + BODY));
  return timingSafeEqual(given, Buffer.from(checksum(body)));
}
