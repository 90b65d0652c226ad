import { randomBytes } from 'node:crypto';

// Crockford-style alphabet: no I, L, O, U, so ids read back unambiguously.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export function randomToken(length: number, alphabet = ALPHABET): string {
  // Rejection sampling keeps every character equally likely for any alphabet size.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < limit) out += alphabet[b % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Opaque public ids: a type prefix and 20 random characters (100 bits). */
export function newId(prefix: 'biz' | 'loc' | 'svc' | 'stf' | 'key' | 'ses' | 'off' | 'bkg' | 'trn'): string {
  return `${prefix}_${randomToken(20)}`;
}
