import { MAX_VISIT_PARTS } from '../availability/visit.ts';
import type { ServiceRecord } from '../catalog-records.ts';

/**
 * The booking page's visits (salon-scheduling.md "Visits"): the first service chosen, then up to
 * three more with `Add another service`, the later ones kept in the query as `more=id,id`.
 */

/**
 * Whether a service may be a part of a visit booked on the page: a group session has its own
 * times, a deposit service is booked on its own (one payment link per booking), and an on-site
 * service's address would have to be asked of every part (docs/booking-page.md "Visits").
 */
export function joinsVisit(s: Pick<ServiceRecord, 'bookingMode' | 'depositRequired' | 'onSite'>): boolean {
  return s.bookingMode !== 'groupSession' && !s.depositRequired && !s.onSite;
}

/** The `more` query value of a visit's later services; undefined for none. */
export function moreParam(ids: readonly string[]): string | undefined {
  return ids.length === 0 ? undefined : ids.join(',');
}

/**
 * The services of the page's state in order: the first, then each of `more`. Undefined when
 * `more` names something the page cannot offer (unknown, repeated, not joinable, too many), so the
 * step is mended by dropping it.
 */
export function visitOfQuery(
  first: ServiceRecord,
  more: string | undefined,
  offered: readonly ServiceRecord[],
): ServiceRecord[] | undefined {
  if (more === undefined || more === '') return [first];
  const ids = more.split(',');
  if (ids.length + 1 > MAX_VISIT_PARTS || !joinsVisit(first)) return undefined;
  const out = [first];
  for (const id of ids) {
    const s = offered.find((o) => o.id === id);
    if (!s || !joinsVisit(s) || out.some((o) => o.id === id)) return undefined;
    out.push(s);
  }
  return out;
}

/** The services `Add another service` may offer now: joinable, not yet in the visit, while there is room. */
export function addableServices(visit: readonly ServiceRecord[], offered: readonly ServiceRecord[]): ServiceRecord[] {
  if (visit.length >= MAX_VISIT_PARTS || !visit.every(joinsVisit)) return [];
  return offered.filter((s) => joinsVisit(s) && !visit.some((v) => v.id === s.id));
}

/** The visit's length from the first start to the last end: the parts and the buffers between them. */
export function visitMinutes(
  visit: readonly Pick<ServiceRecord, 'durationMinutes' | 'bufferBeforeMinutes' | 'bufferAfterMinutes'>[],
): number {
  let total = 0;
  for (const [i, s] of visit.entries()) {
    total += s.durationMinutes;
    const next = visit[i + 1];
    if (next) total += s.bufferAfterMinutes + next.bufferBeforeMinutes;
  }
  return total;
}

/** The visit's price: the sum, `from` when any part's is a from-price, none when any part's is on request. */
export function visitPrice(visit: readonly Pick<ServiceRecord, 'priceType' | 'priceMinor' | 'currency'>[]): {
  priceType: 'fixed' | 'from' | 'negotiable';
  priceMinor: number | null;
  currency: string;
} {
  const currency = visit[0]?.currency ?? '';
  if (visit.some((s) => s.priceType === 'negotiable' || s.priceMinor === null))
    return { priceType: 'negotiable', priceMinor: null, currency };
  const sum = visit.reduce((n, s) => n + (s.priceMinor ?? 0), 0);
  return { priceType: visit.some((s) => s.priceType === 'from') ? 'from' : 'fixed', priceMinor: sum, currency };
}
