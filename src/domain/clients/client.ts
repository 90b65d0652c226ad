/** A client of a business (clients-and-reports.md "Clients"): the person behind its bookings. */
export interface ClientRecord {
  id: string;
  businessId: string;
  name: string;
  phone: string | null;
  email: string | null;
  notes: string;
  tags: string[];
  erasedAt: Date | null;
}

/** A client with the figures the list shows. */
export interface ClientSummary extends ClientRecord {
  /** `completed` bookings */
  visits: number;
  /** `noShow` bookings */
  noShows: number;
  /** the start of the latest completed booking */
  lastVisitAt: Date | null;
  /** the start of the earliest future booking that occupies time */
  nextVisitAt: Date | null;
}

/**
 * What a search text looks for: a phone by its digits when it is written like one (`+36 30 123`,
 * `30-123`), else a name or an email, folded by the database (lower case, no accents).
 */
export type ClientSearch = { kind: 'all' } | { kind: 'phone'; digits: string } | { kind: 'text'; text: string };

const PHONE_LIKE = /^[+\d\s()./-]+$/;

export function clientSearch(q: string | undefined): ClientSearch {
  const text = (q ?? '').trim();
  if (text === '') return { kind: 'all' };
  const digits = text.replace(/\D/g, '');
  if (PHONE_LIKE.test(text) && digits.length >= 2) return { kind: 'phone', digits };
  return { kind: 'text', text };
}

/** Tags as a member typed them, trimmed, the first of each spelling kept (case-insensitively), in order. */
export function normaliseTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    const key = tag.toLocaleLowerCase();
    if (tag === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}
