import { randomToken } from '../ids.ts';

// Uppercase letters and digits without the look-alikes 0/O, 1/I/L, 5/S, 2/Z, 8/B.
const ALPHABET = '34679ACDEFGHJKMNPQRTUVWXY';

export const PUBLIC_REFERENCE_PATTERN = /^BK-[34679ACDEFGHJKMNPQRTUVWXY]{8}$/;

export function newPublicReference(): string {
  return `BK-${randomToken(8, ALPHABET)}`;
}
