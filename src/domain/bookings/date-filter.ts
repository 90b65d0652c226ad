import { invalidField } from '../errors.ts';
import { parseIsoDate } from '../time/calendar.ts';

/** A checked from/to pair of local dates (checkedDates). */
export interface DateFilter {
  readonly from: string;
  readonly to: string;
  readonly checked: true;
}

function checkDate(path: string, value: string | undefined): void {
  if (value === undefined) return;
  try {
    parseIsoDate(value);
  } catch {
    throw invalidField(path, 'is not a real date');
  }
}

/**
 * The list's date filter: both or neither, real dates, `to` not before `from`. Pure, so a route runs
 * it with the schema's checks — a 400 before the scope's 403 or a missing business's 404.
 */
export function checkedDates(from: string | undefined, to: string | undefined): DateFilter | undefined {
  if ((from === undefined) !== (to === undefined)) {
    throw invalidField(from === undefined ? 'query.from' : 'query.to', 'from and to must be given together');
  }
  if (from === undefined || to === undefined) return undefined;
  checkDate('query.from', from);
  checkDate('query.to', to);
  if (to < from) throw invalidField('query.to', 'must not be before from');
  return { from, to, checked: true };
}
