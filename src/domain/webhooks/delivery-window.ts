import { invalidField } from '../errors.ts';

/**
 * The time window of a delivery-log query (spec: "a query covers at most 90 days"). `from` is
 * inclusive and `to` exclusive; both filter on the record's `createdAt` (when the business event
 * happened). Each accepts an ISO 8601 date-time with `Z` or an offset, or a bare date: as `from` a
 * date means its 00:00 UTC, as `to` the end of that UTC day, so `from=2026-11-01&to=2026-11-30`
 * covers both days whole. Without `to` there is no upper bound (everything up to now, including
 * what happens in this very instant) and `from` must lie at most 90 days back; without `from` it is
 * 90 days before `to` (or before now). A wider window, or `to` not after `from`, is a 400
 * request.validation_failed naming the field.
 */
export const MAX_WINDOW_DAYS = 90;
const DAY_MS = 86_400_000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?([Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

function realDate(y: string, m: string, d: string): boolean {
  const t = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return t.getUTCFullYear() === Number(y) && t.getUTCMonth() === Number(m) - 1 && t.getUTCDate() === Number(d);
}

function parseBound(path: string, raw: string, end: boolean): Date {
  // An unencoded `+` of an offset arrives as a space (form encoding of query strings): take it back.
  const value = raw.replace(/ (\d{2}:\d{2})$/, '+$1');
  const date = DATE.exec(value);
  if (date) {
    if (!realDate(date[1]!, date[2]!, date[3]!)) throw invalidField(path, 'is not a real date');
    const midnight = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    return new Date(end ? midnight + DAY_MS : midnight);
  }
  const dt = DATE_TIME.exec(value);
  if (!dt) throw invalidField(path, 'must be an ISO 8601 date-time with Z or an offset (2026-11-01T00:00:00Z) or a date (2026-11-01)');
  if (!realDate(dt[1]!, dt[2]!, dt[3]!)) throw invalidField(path, 'is not a real date');
  const t = Date.parse(value.replace(' ', 'T').toUpperCase());
  if (Number.isNaN(t)) throw invalidField(path, 'is not a valid date-time');
  return new Date(t);
}

export interface DeliveryWindow {
  from: Date;
  /** null: open-ended (no `to` given) */
  to: Date | null;
}

export function resolveDeliveryWindow(query: { from?: string | undefined; to?: string | undefined }, now: Date): DeliveryWindow {
  const to = query.to === undefined ? null : parseBound('query.to', query.to, true);
  const end = to ?? now;
  const from = query.from === undefined ? new Date(end.getTime() - MAX_WINDOW_DAYS * DAY_MS) : parseBound('query.from', query.from, false);
  if (to !== null && to.getTime() <= from.getTime()) throw invalidField('query.to', 'must be after from');
  if (end.getTime() - from.getTime() > MAX_WINDOW_DAYS * DAY_MS) {
    throw invalidField(
      query.to === undefined ? 'query.from' : 'query.to',
      `the window from ${from.toISOString()} to ${end.toISOString()} is longer than ${MAX_WINDOW_DAYS} days; a query covers at most ${MAX_WINDOW_DAYS} days`,
    );
  }
  return { from, to };
}
