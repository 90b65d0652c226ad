import type { ReadCaches } from '../cache/read-caches.ts';

/**
 * The caches and the versions the request learnt before it read anything (undefined: that cache is
 * bypassed). docs/architecture.md "Caches and their invalidation" says why an answer kept under
 * these versions is exact.
 */
export interface CacheUse {
  caches: ReadCaches;
  businessId: string;
  /** the business's own version: its catalogue, staff, hours and time off */
  version: number | undefined;
  /** its occupancy version: bookings and group sessions */
  occupancy: number | undefined;
}

function id(c: CacheUse, parts: readonly unknown[]): string {
  // The business is part of every id: versions are per business, so two businesses' numbers may match.
  return JSON.stringify([c.businessId, ...parts]);
}

/** A read that depends on the catalogue only (a listing, a service, who performs it). */
export function catalogueRead<T>(c: CacheUse | undefined, parts: readonly unknown[], read: () => Promise<T>): Promise<T> {
  if (!c) return read();
  return c.caches.answer(c.version, id(c, parts), read);
}

/**
 * A read that also depends on bookings (busy times, open slots, seats left): kept under both
 * versions, in the pool of large answers, weighed by `weigh` (about its element count). `usable`
 * may refuse a kept answer the versions cannot date: one holding a guest's hold that has ended,
 * which no write announces.
 */
export function occupancyRead<T>(
  c: CacheUse | undefined,
  parts: readonly unknown[],
  read: () => Promise<T>,
  weigh: (data: T) => number,
  usable?: (data: T) => boolean,
): Promise<T> {
  if (!c) return read();
  const version = c.version !== undefined && c.occupancy !== undefined ? `${c.version}/${c.occupancy}` : undefined;
  return c.caches.busyAnswer(version, id(c, parts), read, weigh, usable);
}
