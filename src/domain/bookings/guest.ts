import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { invalidField } from '../errors.ts';

export interface GuestInput {
  name: string;
  phone: string;
  email?: string | undefined;
}

export interface Guest {
  name: string;
  /** E.164 */
  phone: string;
  /** lowercased; null when absent or not a valid address (tolerant input) */
  email: string | null;
}

// Deliberately plain: one @, no spaces, a dot in the domain. Invalid input is dropped, not refused.
const EMAIL = /^[^\s@<>()[\],;:"]{1,64}@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:".]{2,}$/;

export function normalizeEmail(email: string | undefined): string | null {
  if (email === undefined) return null;
  const e = email.trim().toLowerCase();
  return e.length <= 254 && EMAIL.test(e) ? e : null;
}

/** E.164; a number without a country code gets +36 (the product's default country, Hungary). */
export function normalizePhone(phone: string, path = 'body.guest.phone'): string {
  const p = parsePhoneNumberFromString(phone.trim(), { defaultCountry: 'HU' });
  if (!p?.isPossible()) throw invalidField(path, 'is not a usable phone number');
  return p.number;
}

export function normalizeGuest(input: GuestInput, path = 'body.guest'): Guest {
  const name = input.name.trim();
  // Characters as the schema counts them (code points): an emoji is one, not two UTF-16 units.
  const length = [...name].length;
  if (length < 1 || length > 100) throw invalidField(`${path}.name`, 'must be 1 to 100 characters');
  return { name, phone: normalizePhone(input.phone, `${path}.phone`), email: normalizeEmail(input.email) };
}
