import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** business-side.md: at least 10 characters. The upper bound keeps a hash from costing more than one. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

// scrypt with N = 2^15, r = 8, p = 1: 32 MiB and ~60-100 ms a hash on this machine's cores, above
// OWASP's minimum (N = 2^17 with r = 8 is its first choice, 2^15 is in its table for the same
// strength per second). The parameters travel in the stored string, so raising them later only
// needs new hashes, not a migration.
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAXMEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAXMEM }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `scrypt$N$r$p$salt$hash` (base64url), the only form a password is ever stored in. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const expected = Buffer.from(parts[5]!, 'base64url');
  const key = await derive(password, Buffer.from(parts[4]!, 'base64url'), n, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash of a password nobody has, so a sign-in for an unknown email spends the same time as one
 * with a wrong password (the two must answer alike, in content and in timing).
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(18).toString('base64url'));
  return decoy;
}
