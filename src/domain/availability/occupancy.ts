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
  // Empty or inverted intervals cover no time, so they are dropped rather than trusted to the
  // overlap formula (which would let an inverted one block ranges that contain it).
  const all = lists.flat().filter((i) => i.start < i.end);
  all.sort((a, b) => a.start - b.start);
  const starts: number[] = [];
  const ends: number[] = [];
  for (const { start, end } of all) {
    const last = ends.length - 1;
    // Only strictly overlapping intervals are merged: half-open intervals that merely touch
    // leave a gap of zero width, and keeping them apart keeps the union exactly the same set.
    if (last >= 0 && start < ends[last]!) {
      if (end > ends[last]!) ends[last] = end;
    } else {
      starts.push(start);
      ends.push(end);
    }
  }
  return { starts: Float64Array.from(starts), ends: Float64Array.from(ends) };
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
