/**
 * Operator input speaks local wall-clock time in the location's zone; the store keeps UTC instants.
 * Conversions here go through Temporal so that daylight-saving rules come from the zone database.
 */
import { Temporal } from 'temporal-polyfill';

export interface LocalDateTime {
  date: string;
  time: string;
}

/**
 * The instant of a local date and time as an edge (of time off): the first instant at which the
 * wall clock reads that time or later, as working-hour edges are read (zone-day.ts,
 * localBoundary). A repeated autumn time is its first occurrence; a time skipped by a spring-forward gap
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
