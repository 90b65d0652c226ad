import { isoWeekday, MINUTE_MS } from '../time/calendar.ts';
import { localBoundary, zoneDay } from '../time/zone-day.ts';

export interface WeeklyHours {
  /** ISO weekday, Monday = 1 */
  weekday: number;
  startMinute: number;
  endMinute: number;
}

export interface Span {
  start: number;
  end: number;
}

/**
 * The minutes a staff member works over local days fromDay..toDay: each day's working hours as
 * instants (the engine's localBoundary, so a day with a DST change is 23 or 25 hours long and an
 * hour the clock skips is not worked), less the time off that overlaps them.
 */
export function workingMinutes(
  timeZone: string,
  hours: readonly WeeklyHours[],
  timeOff: readonly Span[],
  fromDay: number,
  toDay: number,
): number {
  const off = [...timeOff].sort((a, b) => a.start - b.start);
  let total = 0;
  for (let d = fromDay; d <= toDay; d++) {
    const weekday = isoWeekday(d);
    const day = zoneDay(timeZone, d);
    for (const h of hours) {
      if (h.weekday !== weekday) continue;
      const open = localBoundary(day, h.startMinute);
      const close = localBoundary(day, h.endMinute);
      if (close > open) total += close - open - overlap(open, close, off);
    }
  }
  return Math.round(total / MINUTE_MS);
}

/** How much of [start, end) the spans cover, overlapping spans counted once. */
function overlap(start: number, end: number, sorted: readonly Span[]): number {
  let covered = 0;
  let reached = start;
  for (const s of sorted) {
    if (s.start >= end) break;
    const from = Math.max(s.start, reached);
    const to = Math.min(s.end, end);
    if (to > from) {
      covered += to - from;
      reached = to;
    }
  }
  return covered;
}
