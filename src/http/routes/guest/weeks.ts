import { formatIsoDate, parseIsoDate } from '../../../domain/time/calendar.ts';

/** The time step's week paging, shared by the booking page and the manage page's reschedule. */
export function isRealDate(date: string): boolean {
  try {
    parseIsoDate(date);
    return true;
  } catch {
    return false;
  }
}

export function minDate(a: string, b: string): string {
  return a < b ? a : b;
}

export function maxDate(a: string, b: string): string {
  return a > b ? a : b;
}

/** The week asked for, kept between today and the horizon's last day; today when none or not a date. */
export function weekStart(asked: string | undefined, today: string, last: string): string {
  if (asked === undefined) return today;
  try {
    const d = formatIsoDate(parseIsoDate(asked));
    return d < today ? today : d > last ? last : d;
  } catch {
    return today;
  }
}
