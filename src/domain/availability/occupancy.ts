/**
 * A staff member's unavailable time (time off and busy bookings) as one sorted list of
 * disjoint intervals, so that each candidate costs a binary search instead of a scan.
 */
import type { Interval } from './types.ts';

export interface Occupancy {
  readonly starts: Float64Array;
  readonly ends: Float64Array;
}

export function buildOccupancy(lists: readonly (readonly Interval[])[]): Occupancy {
  let count = 0;
  for (const list of lists) count += list.length;
  const openings = new Float64Array(count);
  const closings = new Float64Array(count);
  let n = 0;
  for (const list of lists) {
    for (const { start, end } of list) {
      // Empty or inverted intervals cover no time; the overlap formula would let an inverted
      // one block any range containing it.
      if (!(start < end)) continue;
      openings[n] = start;
      closings[n] = end;
      n++;
    }
  }
  // Sorting starts and ends independently (native numeric sort, no comparator) and sweeping
  // the coverage depth yields the union without sorting interval objects.
  const sortedOpenings = openings.subarray(0, n).sort();
  const sortedClosings = closings.subarray(0, n).sort();
  // The union has at most n intervals: written in place over the arrays already read (the k-th
  // union start is written after the k-th opening was read, likewise for the ends), so a search's
  // every staff member and unit allocates nothing more than its two input arrays.
  let depth = 0;
  let i = 0;
  let j = 0;
  let k = 0;
  let m = 0;
  while (j < n) {
    // At equal times a closing goes first, so intervals that merely touch stay apart: a
    // zero-width seam keeps the union exactly the same half-open set.
    if (i < n && sortedOpenings[i]! < sortedClosings[j]!) {
      if (depth++ === 0) sortedOpenings[k++] = sortedOpenings[i]!;
      i++;
    } else {
      if (--depth === 0) sortedClosings[m++] = sortedClosings[j]!;
      j++;
    }
  }
  return { starts: sortedOpenings.subarray(0, k), ends: sortedClosings.subarray(0, m) };
}

/** Whether [start, end) overlaps any occupied interval (half-open on both sides). */
export function isOccupied(occupancy: Occupancy, start: number, end: number): boolean {
  const { starts, ends } = occupancy;
  // Disjoint sorted intervals have sorted ends too. Every interval before the first one ending
  // after `start` ends too early to overlap; if that one starts at or after `end`, so do all later.
  let lo = 0;
  let hi = ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ends[mid]! > start) hi = mid;
    else lo = mid + 1;
  }
  return lo < starts.length && starts[lo]! < end;
}

/**
 * The units of each needed resource as searchable lists. A time [start, end) can be had when every
 * resource has some unit with nothing in the way: the database assigns any such unit (migration 026).
 */
export type ResourceUnits = readonly (readonly Occupancy[])[];

export function buildResourceUnits(resources: ReadonlyArray<{ quantity: number; units: readonly (readonly Interval[])[] }>): ResourceUnits {
  return resources.map((r) => Array.from({ length: Math.max(0, r.quantity) }, (_, i) => buildOccupancy([r.units[i] ?? []])));
}

/** The indexes (into the resources given to buildResourceUnits) of those with no unit free for all of [start, end). */
export function resourcesTaken(units: ResourceUnits, start: number, end: number): number[] {
  const taken: number[] = [];
  for (let r = 0; r < units.length; r++) {
    if (!units[r]!.some((unit) => !isOccupied(unit, start, end))) taken.push(r);
  }
  return taken;
}

export function resourcesFree(units: ResourceUnits, start: number, end: number): boolean {
  for (const resource of units) {
    if (!resource.some((unit) => !isOccupied(unit, start, end))) return false;
  }
  return true;
}
