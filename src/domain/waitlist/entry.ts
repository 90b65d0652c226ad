/** A waitlist entry's life (guest-side.md "Waitlist"): it ends booked, withdrawn or past its last date. */
export type WaitlistStatus = 'waiting' | 'offered' | 'booked' | 'withdrawn' | 'expired';
export type OfferStatus = 'open' | 'claimed' | 'passed' | 'cancelled';

export interface WaitlistEntry {
  id: string;
  businessId: string;
  locationId: string;
  serviceId: string;
  /** null: any staff member */
  staffId: string | null;
  name: string;
  phone: string;
  email: string;
  lang: string;
  fromDate: string;
  toDate: string;
  /** location-local HH:MM: the appointment starts at or after this */
  earliestTime: string;
  /** location-local HH:MM: the appointment starts at or before this */
  latestTime: string;
  status: WaitlistStatus;
  bookingId: string | null;
  createdAt: Date;
}

export interface WaitlistOffer {
  id: string;
  businessId: string;
  entryId: string;
  holdId: string;
  staffId: string;
  date: string;
  startTime: string;
  cause: string;
  claimNonce: string;
  expiresAt: Date;
  status: OfferStatus;
  bookingId: string | null;
}

/** Whether a free start suits the entry: a date of its range, a start inside its window (both ends included). */
export function fitsEntry(
  e: Pick<WaitlistEntry, 'fromDate' | 'toDate' | 'earliestTime' | 'latestTime'>,
  date: string,
  startTime: string,
): boolean {
  return date >= e.fromDate && date <= e.toDate && startTime >= e.earliestTime && startTime <= e.latestTime;
}

/**
 * The times to offer, best first: the free starts that suit the entry, earliest first, leaving out
 * the times it was already offered and let pass (an offer passes on to the next entry, not back to
 * the same one).
 */
export function fittingTimes(
  e: Pick<WaitlistEntry, 'fromDate' | 'toDate' | 'earliestTime' | 'latestTime'>,
  days: ReadonlyArray<{ date: string; times: readonly string[] }>,
  passed: ReadonlySet<string> = new Set(),
): Array<{ date: string; startTime: string }> {
  const out: Array<{ date: string; startTime: string }> = [];
  const sorted = [...days].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  for (const d of sorted) {
    for (const t of [...d.times].sort()) {
      if (fitsEntry(e, d.date, t) && !passed.has(`${d.date} ${t}`)) out.push({ date: d.date, startTime: t });
    }
  }
  return out;
}
