/**
 * Operator input speaks local wall-clock time in the location's zone; the store keeps UTC instants.
 * Conversions here go through Temporal so that daylight-saving rules come from the zone database.
 */
import { Temporal } from 'temporal-polyfill';

// Intl also accepts offsets such as "+01:00"; a location needs a named zone so its DST rules apply.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

export function isValidTimeZone(timeZone: string): boolean {
  if (!ZONE_NAME.test(timeZone)) return false;
  try {
    new Intl.DateTimeFormat(undefined, { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** "HH:MM" (already pattern-checked, "24:00" included) to minutes after local midnight. */
export function parseHhMm(text: string): number {
  const [h, m] = text.split(':');
  return Number(h) * 60 + Number(m);
}

/** Minutes after local midnight to "HH:MM"; 1440 stays "24:00" so an end of day reads back as given. */
export function formatMinutes(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

export interface LocalDateTime {
  date: string;
  time: string;
}

/**
 * The instant of a local date and time as an edge (of time off): the first instant at which the
 * wall clock reads that time or later, as working-hour edges are read (availability's zone.ts,
 * boundary). A repeated autumn time is its first occurrence; a time skipped by a spring-forward gap
 * is the instant of the jump, so time off "until 02:30" on a day that skips 02:00-03:00 covers
 * everything before the jump, and "from 02:30" starts at it. Undefined when the date does not exist
 * (e.g. 2026-02-30).
 */
export function localToInstant(local: LocalDateTime, timeZone: string): Date | undefined {
  let pdt: Temporal.PlainDateTime;
  try {
    pdt = Temporal.PlainDateTime.from(`${local.date}T${local.time}`);
  } catch {
    return undefined;
  }
  // 'earlier' gives the first occurrence of an existing time; for a skipped one it gives an
  // instant just before the gap, whose next transition is the jump over it.
  const zoned = pdt.toZonedDateTime(timeZone, { disambiguation: 'earlier' });
  if (zoned.toPlainDateTime().equals(pdt)) return new Date(zoned.epochMilliseconds);
  const jump = zoned.getTimeZoneTransition('next');
  return new Date((jump ?? zoned).epochMilliseconds);
}

export function instantToLocal(instant: Date, timeZone: string): LocalDateTime {
  const zoned = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone);
  return { date: zoned.toPlainDate().toString(), time: zoned.toPlainTime().toString({ smallestUnit: 'minute' }) };
}
