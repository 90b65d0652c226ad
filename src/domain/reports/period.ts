import { invalidField } from '../errors.ts';
import { parseIsoDate } from '../time/calendar.ts';

/** A report covers at most this many local days, from and to included (a leap year's). */
export const MAX_REPORT_DAYS = 366;

export interface ReportPeriod {
  readonly from: string;
  readonly to: string;
  /** days since 1970-01-01 of from and to */
  readonly fromDay: number;
  readonly toDay: number;
}

function epochDay(path: string, value: string): number {
  try {
    return parseIsoDate(value);
  } catch {
    throw invalidField(path, 'is not a real date');
  }
}

/** Real dates, `to` not before `from`, at most 366 days: checked before any lookup, so a bad query is a 400. */
export function reportPeriod(from: string, to: string): ReportPeriod {
  const fromDay = epochDay('query.from', from);
  const toDay = epochDay('query.to', to);
  if (toDay < fromDay) throw invalidField('query.to', 'must not be before from');
  if (toDay - fromDay + 1 > MAX_REPORT_DAYS)
    throw invalidField('query.to', `must be at most ${MAX_REPORT_DAYS} days from from, both included`);
  return { from, to, fromDay, toDay };
}
