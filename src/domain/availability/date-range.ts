import { AppError, invalidField } from '../errors.ts';
import { parseIsoDate } from '../time/calendar.ts';
import { MAX_RANGE_DAYS } from './range-limit.ts';

function epochDay(path: string, date: string): number {
  try {
    return parseIsoDate(date);
  } catch {
    throw invalidField(path, 'is not a real date');
  }
}

/** One real local date of a request (explain's `date`); an impossible one is a 400 naming the field. */
export function assertRealDate(path: string, date: string): void {
  epochDay(path, date);
}

/**
 * An impossible calendar date (2026-02-30) is a malformed field, so it is refused with the schema
 * checks, before scope (decisions.md order of checks); the range rules are business rules, after it.
 */
export function assertRealDates(from: string, to: string): void {
  epochDay('body.dateRange.from', from);
  epochDay('body.dateRange.to', to);
}

/** The search's local dates as day numbers, once the range rules hold. */
export function searchDays(from: string, to: string): { firstDay: number; lastDay: number } {
  const firstDay = epochDay('body.dateRange.from', from);
  const lastDay = epochDay('body.dateRange.to', to);
  if (lastDay < firstDay) throw invalidField('body.dateRange.to', 'must not be before dateRange.from');
  if (lastDay - firstDay > MAX_RANGE_DAYS) {
    throw new AppError('availability.date_range_too_wide', undefined, { maxDays: MAX_RANGE_DAYS });
  }
  return { firstDay, lastDay };
}
