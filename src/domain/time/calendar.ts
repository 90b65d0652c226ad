/**
 * Local calendar arithmetic on plain numbers. Dates are counted as days since 1970-01-01
 * so that iterating a range and finding weekdays never needs Temporal or a time zone.
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
export const MINUTES_PER_DAY = 1440;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface CalendarDate {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
}

/** Days since 1970-01-01 of a YYYY-MM-DD string. */
export function parseIsoDate(text: string): number {
  const match = ISO_DATE.exec(text);
  if (!match) throw new RangeError(`invalid local date: ${text}`);
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const epochDay = Date.UTC(year, month - 1, day) / DAY_MS;
  // Date.UTC silently rolls 2026-02-30 over into March; a rolled date would shift the whole search.
  const back = calendarDate(epochDay);
  if (back.year !== year || back.month !== month || back.day !== day) {
    throw new RangeError(`invalid local date: ${text}`);
  }
  return epochDay;
}

export function calendarDate(epochDay: number): CalendarDate {
  const d = new Date(epochDay * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function formatIsoDate(epochDay: number): string {
  const { year, month, day } = calendarDate(epochDay);
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}`;
}

/** ISO weekday, Monday = 1 ... Sunday = 7. */
export function isoWeekday(epochDay: number): number {
  // 1970-01-01 was a Thursday (4); the double modulo keeps pre-1970 days non-negative.
  return ((((epochDay + 3) % 7) + 7) % 7) + 1;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
