import { normalizeEmail, normalizePhone } from '../bookings/guest.ts';

/** The details form's fields as the page posts them (every value a string, or absent). */
export interface DetailsForm {
  name: string;
  phone: string;
  email: string;
  note: string;
  address: string;
  terms: boolean;
  depositTerms: boolean;
  /** the honeypot: a person never fills it in */
  website: string;
}

export type DetailsField = 'name' | 'phone' | 'email' | 'note' | 'address' | 'terms' | 'depositTerms';
export type DetailsProblem = 'required' | 'invalid' | 'tooLong';
export type DetailsErrors = Partial<Record<DetailsField, DetailsProblem>>;

/** The bounds of POST /v1/bookings' body, so the page never sends what the use case refuses. */
export const DETAILS_LIMITS = { name: 100, note: 1000, address: 300, email: 254, phone: 40 } as const;

function str(v: unknown): string {
  if (Array.isArray(v)) return str(v[0]);
  return typeof v === 'string' ? v : '';
}

/** The posted form, read leniently: a missing or repeated field is an empty or first value. */
export function readDetailsForm(body: Record<string, unknown>): DetailsForm {
  return {
    name: str(body.name).slice(0, 500),
    phone: str(body.phone).slice(0, 200),
    email: str(body.email).slice(0, 500),
    note: str(body.note).slice(0, 5000),
    address: str(body.address).slice(0, 1000),
    terms: str(body.terms) !== '',
    depositTerms: str(body.depositTerms) !== '',
    website: str(body.website),
  };
}

function codePoints(s: string): number {
  return [...s].length;
}

/**
 * What the page asks beyond the API: the email is required (the confirmation and manage link go
 * there), the terms box ticked. The phone is checked as the use case will (normalizePhone), so its
 * refusal lands beside the field instead of on a generic error page.
 */
export function checkDetails(form: DetailsForm, needs: { deposit: boolean; onSite: boolean }): DetailsErrors {
  const errors: DetailsErrors = {};
  const name = form.name.trim();
  if (name === '') errors.name = 'required';
  else if (codePoints(name) > DETAILS_LIMITS.name) errors.name = 'tooLong';
  const phone = form.phone.trim();
  if (phone === '') errors.phone = 'required';
  else if (phone.length > DETAILS_LIMITS.phone || !isPhone(phone)) errors.phone = 'invalid';
  const email = form.email.trim();
  if (email === '') errors.email = 'required';
  else if (normalizeEmail(email) === null) errors.email = 'invalid';
  if (codePoints(form.note) > DETAILS_LIMITS.note) errors.note = 'tooLong';
  if (needs.onSite) {
    const address = form.address.trim();
    if (address === '') errors.address = 'required';
    else if (codePoints(address) > DETAILS_LIMITS.address) errors.address = 'tooLong';
  }
  if (!form.terms) errors.terms = 'required';
  if (needs.deposit && !form.depositTerms) errors.depositTerms = 'required';
  return errors;
}

function isPhone(phone: string): boolean {
  try {
    normalizePhone(phone);
    return true;
  } catch {
    return false;
  }
}

/** Whether the honeypot caught a robot. */
export function isHoneypotFilled(form: DetailsForm): boolean {
  return form.website.trim() !== '';
}
