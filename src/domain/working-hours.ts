import type { WorkingInterval } from './availability/types.ts';
import { invalidField } from './errors.ts';
import { formatMinutes, parseHhMm } from './time/hh-mm.ts';

export interface WorkingHoursEntry {
  /** ISO weekday, Monday = 1 */
  weekday: number;
  start: string;
  end: string;
}

/**
 * Checks what the schema cannot: start before end, and no two intervals of one weekday
 * overlapping (touching is fine: 09:00-12:00 and 12:00-17:00 is one unbroken day).
 */
export function parseWorkingHours(entries: readonly WorkingHoursEntry[], path: string): WorkingInterval[] {
  const intervals = entries.map((e, i) => {
    const startMinute = parseHhMm(e.start);
    const endMinute = parseHhMm(e.end);
    if (startMinute >= endMinute) throw invalidField(`${path}[${i}].end`, 'must be after start');
    return { weekday: e.weekday, startMinute, endMinute, index: i };
  });
  const sorted = [...intervals].sort((a, b) => a.weekday - b.weekday || a.startMinute - b.startMinute);
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    if (prev.weekday === cur.weekday && cur.startMinute < prev.endMinute) {
      throw invalidField(`${path}[${cur.index}]`, `overlaps ${path}[${prev.index}] on weekday ${cur.weekday}`);
    }
  }
  return sorted.map(({ weekday, startMinute, endMinute }) => ({ weekday, startMinute, endMinute }));
}

export function formatWorkingHours(intervals: readonly WorkingInterval[]): WorkingHoursEntry[] {
  return [...intervals]
    .sort((a, b) => a.weekday - b.weekday || a.startMinute - b.startMinute)
    .map((w) => ({ weekday: w.weekday, start: formatMinutes(w.startMinute), end: formatMinutes(w.endMinute) }));
}
