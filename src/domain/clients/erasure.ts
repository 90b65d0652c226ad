import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** What an erased client and its bookings are called from then on (clients-and-reports.md "Erasure"). */
export const ERASED_NAME = 'Erased client';

/** The strings an erasure removes wherever they are stored: names become ERASED_NAME, contacts go. */
export interface Needles {
  names: string[];
  contacts: string[];
}

/**
 * Every spelling of the client's contact details that a stored text may hold: the names as
 * written, the emails in any case, each phone as E.164 and as the international and national
 * formats a message shows it in. Short strings (under 3 characters) are left out: they are not a
 * person's details and would be found inside unrelated words.
 */
export function needlesOf(people: ReadonlyArray<{ name?: string | null; phone?: string | null; email?: string | null }>): Needles {
  const names = new Set<string>();
  const contacts = new Set<string>();
  for (const p of people) {
    if (p.name && p.name !== ERASED_NAME) names.add(p.name.trim());
    if (p.email) contacts.add(p.email.trim());
    if (p.phone) {
      contacts.add(p.phone.trim());
      const parsed = parsePhoneNumberFromString(p.phone);
      if (parsed) {
        contacts.add(parsed.number);
        contacts.add(parsed.formatInternational());
        contacts.add(parsed.formatNational());
      }
    }
  }
  const keep = (s: string) => s.length >= 3;
  // longest first: a name that contains another is replaced whole
  const order = (a: string, b: string) => b.length - a.length;
  return { names: [...names].filter(keep).sort(order), contacts: [...contacts].filter(keep).sort(order) };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `text` with each needle replaced: names by ERASED_NAME, contacts by nothing; emails in any case. */
export function scrubText(text: string, needles: Needles): string {
  let out = text;
  for (const c of needles.contacts) out = out.replace(new RegExp(escapeRegExp(c), 'giu'), '');
  for (const n of needles.names) out = out.split(n).join(ERASED_NAME);
  return out;
}

/** Whether `text` holds any needle (the same matching as scrubText). */
export function holdsAny(text: string, needles: Needles): boolean {
  return scrubText(text, needles) !== text;
}

/**
 * A stored JSON document with every string value scrubbed (keys stay: they are field names). A
 * text that is not JSON is scrubbed as text.
 */
export function scrubJson(json: string, needles: Needles): string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return scrubText(json, needles);
  }
  return JSON.stringify(scrubValue(value, needles));
}

export function scrubValue(value: unknown, needles: Needles): unknown {
  if (typeof value === 'string') return scrubText(value, needles);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, needles));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValue(v, needles)]));
  }
  return value;
}
