import { randomFillSync } from 'node:crypto';

// Crockford-style alphabet: no I, L, O, U, so ids read back unambiguously.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

// Random bytes are drawn from the CSPRNG 4 KiB at a time (as crypto.randomUUID does): a booking
// create needs several ids, and one small randomBytes call each was a visible share of its CPU.
const pool = Buffer.alloc(4096);
let used = pool.length;
function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]!;
}

export function randomToken(length: number, alphabet = ALPHABET): string {
  // Rejection sampling keeps every character equally likely for any alphabet size.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    if (b < limit) out += alphabet[b % alphabet.length];
  }
  return out;
}

/** Opaque public ids: a type prefix and 20 random characters (100 bits). */
export function newId(
  prefix:
    | 'biz'
    | 'loc'
    | 'svc'
    | 'stf'
    | 'key'
    | 'ses'
    | 'off'
    | 'bkg'
    | 'trn'
    | 'usr'
    | 'msn'
    | 'inv'
    | 'pwr'
    | 'hld'
    | 'cal'
    | 'mgt'
    | 'msg'
    | 'wl'
    | 'wlo'
    | 'res'
    | 'vst'
    | 'aud',
): string {
  return `${prefix}_${randomToken(20)}`;
}
