/**
 * Local wall clock <-> UTC instants in an IANA zone.
 *
 * Temporal (polyfilled) costs ~25 µs per conversion, far too much to pay per grid point.
 * Almost every local day has a single UTC offset, so per (zone, date) we find that offset
 * once and convert with plain arithmetic; only days containing an offset transition take
 * the precise Temporal path, memoised per minute because every staff member asks for the
 * same grid minutes.
 *
 * Semantics of a local minute m on a date (m = 1440 is the next day's local midnight):
 *  - boundary(m): the first instant at which the wall clock reads m or later. For a time
 *    that exists this is its first occurrence; for a time skipped by a spring-forward gap
 *    it is the transition instant, where the clock jumps past m. Working hours use it.
 *  - start(m): the instant of m if the time exists (first occurrence when repeated),
 *    otherwise null, because a time nobody's clock shows cannot be offered.
 */
import { Temporal } from 'temporal-polyfill';
import { calendarDate, MINUTE_MS, MINUTES_PER_DAY, DAY_MS } from './calendar.ts';
import { formatHhMm } from './hh-mm.ts';

interface Resolved {
  instant: number;
  exists: boolean;
}

export interface ZoneDay {
  readonly timeZone: string;
  readonly epochDay: number;
  /** Date.UTC of the local date; with a fixed offset, instant = utcMidnight + minute·60000 − offset */
  readonly utcMidnight: number;
  /** the UTC offset (ms) valid for the whole local day, or null when a transition falls inside it */
  readonly offsetMs: number | null;
  readonly resolved: Map<number, Resolved>;
  readonly wallClocks: Map<number, string>;
}

// Bounded so a long-running process does not accumulate every (zone, date) it ever served.
const MAX_CACHED_DAYS = 4096;
const MAX_MEMO_ENTRIES = 8192;
const days = new Map<string, ZoneDay>();

export function zoneDay(timeZone: string, epochDay: number): ZoneDay {
  const key = `${timeZone}\n${epochDay}`;
  let day = days.get(key);
  if (day === undefined) {
    if (days.size >= MAX_CACHED_DAYS) days.clear();
    day = {
      timeZone,
      epochDay,
      utcMidnight: epochDay * DAY_MS,
      offsetMs: fixedOffset(timeZone, epochDay),
      resolved: new Map(),
      wallClocks: new Map(),
    };
    days.set(key, day);
  }
  return day;
}

/** Instant at which a candidate starting at local minute m begins, or null if m does not exist that day. */
export function localStart(day: ZoneDay, minute: number): number | null {
  if (day.offsetMs !== null) return day.utcMidnight + minute * MINUTE_MS - day.offsetMs;
  const r = resolve(day, minute);
  return r.exists ? r.instant : null;
}

/** First instant at which the wall clock reads local minute m or later (see module comment). */
export function localBoundary(day: ZoneDay, minute: number): number {
  if (day.offsetMs !== null) return day.utcMidnight + minute * MINUTE_MS - day.offsetMs;
  return resolve(day, minute).instant;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The local calendar date (YYYY-MM-DD) of an instant in a zone. */
export function localDateOf(timeZone: string, instant: number): string {
  let format = dateFormats.get(timeZone);
  if (format === undefined) {
    // en-CA formats dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormats.set(timeZone, format);
  }
  return format.format(instant);
}

/** Local HH:MM of an instant on or shortly after this local day. */
export function wallClock(day: ZoneDay, instant: number): string {
  if (day.offsetMs !== null) {
    const minute = Math.floor((instant + day.offsetMs - day.utcMidnight) / MINUTE_MS);
    // Outside the day the offset may already differ (e.g. a transition exactly at next midnight).
    if (minute >= 0 && minute < MINUTES_PER_DAY) return formatHhMm(minute);
  }
  let text = day.wallClocks.get(instant);
  if (text === undefined) {
    const zoned = Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(day.timeZone);
    text = formatHhMm(zoned.hour * 60 + zoned.minute);
    if (day.wallClocks.size >= MAX_MEMO_ENTRIES) day.wallClocks.clear();
    day.wallClocks.set(instant, text);
  }
  return text;
}

function resolve(day: ZoneDay, minute: number): Resolved {
  let r = day.resolved.get(minute);
  if (r === undefined) {
    r = resolvePrecisely(day, minute);
    if (day.resolved.size >= MAX_MEMO_ENTRIES) day.resolved.clear();
    day.resolved.set(minute, r);
  }
  return r;
}

function resolvePrecisely(day: ZoneDay, minute: number): Resolved {
  const local = localMidnight(day.epochDay).add({ minutes: minute });
  // 'earlier' yields the first occurrence of a repeated time; for a skipped time it yields an
  // instant whose wall clock differs from the request, which is how a gap is recognised.
  const zoned = local.toZonedDateTime(day.timeZone, { disambiguation: 'earlier' });
  if (zoned.toPlainDateTime().equals(local)) return { instant: zoned.epochMilliseconds, exists: true };
  // That 'earlier' instant lies just before the gap, so the next transition is the jump over it.
  const transition = zoned.getTimeZoneTransition('next');
  if (transition === null) throw new Error(`no transition after skipped time ${local.toString()} in ${day.timeZone}`);
  return { instant: transition.epochMilliseconds, exists: false };
}

/**
 * The day's offset if the offsets at local start and end of day agree and no transition lies
 * between them (two transitions in one day would otherwise cancel out unnoticed).
 * A transition exactly at the next local midnight still leaves the day fixed: its 24:00
 * boundary is then the transition instant, which the arithmetic yields with the old offset.
 */
function fixedOffset(timeZone: string, epochDay: number): number | null {
  const start = localMidnight(epochDay).toZonedDateTime(timeZone, { disambiguation: 'earlier' });
  const end = localMidnight(epochDay + 1).toZonedDateTime(timeZone, { disambiguation: 'earlier' });
  if (start.offsetNanoseconds !== end.offsetNanoseconds) return null;
  const next = start.getTimeZoneTransition('next');
  if (next !== null && next.epochMilliseconds < end.epochMilliseconds) return null;
  return start.offsetNanoseconds / 1e6;
}

function localMidnight(epochDay: number): Temporal.PlainDateTime {
  const { year, month, day } = calendarDate(epochDay);
  return new Temporal.PlainDateTime(year, month, day);
}
