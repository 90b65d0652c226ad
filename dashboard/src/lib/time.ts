/**
 * Time as the location keeps it, whatever the browser's zone: every date and hour the dashboard
 * shows is computed with Temporal in the location's IANA zone. A day is from the location's local
 * midnight to the next one, so a DST change day is 23 or 25 hours long and its hour lines are
 * real instants one hour apart (the skipped or repeated hour shows as such).
 */
import { Temporal } from 'temporal-polyfill';

export const MINUTE_MS = 60_000;

/** Today's date (YYYY-MM-DD) in `timeZone`. */
export function todayIn(timeZone: string): string {
  return Temporal.Now.plainDateISO(timeZone).toString();
}

export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

export function isDate(value: string | null | undefined): value is string {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  try {
    Temporal.PlainDate.from(value, { overflow: 'reject' });
    return true;
  } catch {
    return false;
  }
}

export interface HourLine {
  /** minutes from the start of the day */
  minute: number;
  label: string;
}

export interface ZonedDay {
  date: string;
  timeZone: string;
  /** epoch ms of the first instant of the day */
  startMs: number;
  /** 1380, 1440 or 1500 (or odd values in zones with half-hour shifts) */
  lengthMinutes: number;
  hours: HourLine[];
  /** minutes from the day's start of a local `HH:MM` of this date ("24:00" = the day's end) */
  minuteOf(hhmm: string): number;
  /** minutes from the day's start of an instant or of a local date and time (clamped to the day) */
  minuteOfLocal(date: string, hhmm: string): number;
  /** "Tuesday 31 March 2026" in the given locale */
}

export function zonedDay(date: string, timeZone: string): ZonedDay {
  const plain = Temporal.PlainDate.from(date);
  const start = plain.toZonedDateTime({ timeZone });
  const end = plain.add({ days: 1 }).toZonedDateTime({ timeZone });
  const startMs = start.epochMilliseconds;
  const lengthMinutes = Math.round((end.epochMilliseconds - startMs) / MINUTE_MS);
  const hours: HourLine[] = [];
  const seen = new Map<string, number>();
  // Whole local hours that exist on this day, as instants: on a spring-forward day 02:00 is
  // missing, on a fall-back day 02:00 happens twice (once per UTC offset).
  for (let t = start; Temporal.ZonedDateTime.compare(t, end) < 0; t = t.add({ hours: 1 })) {
    const time = t.toPlainTime().toString({ smallestUnit: 'minute' });
    seen.set(time, (seen.get(time) ?? 0) + 1);
    hours.push({ minute: Math.round((t.epochMilliseconds - startMs) / MINUTE_MS), label: time });
  }
  for (const h of hours) {
    if ((seen.get(h.label) ?? 0) > 1) {
      const at = Temporal.Instant.fromEpochMilliseconds(startMs + h.minute * MINUTE_MS).toZonedDateTimeISO(timeZone);
      h.label = `${h.label} (UTC${at.offset})`;
    }
  }
  const clamp = (m: number) => Math.max(0, Math.min(lengthMinutes, m));
  const minuteOfLocal = (d: string, hhmm: string): number => {
    if (hhmm === '24:00') return minuteOfLocal(addDays(d, 1), '00:00');
    const zdt = Temporal.PlainDate.from(d).toZonedDateTime({ timeZone, plainTime: Temporal.PlainTime.from(hhmm) });
    return clamp(Math.round((zdt.epochMilliseconds - startMs) / MINUTE_MS));
  };
  return {
    date,
    timeZone,
    startMs,
    lengthMinutes,
    hours,
    minuteOf: (hhmm) => minuteOfLocal(date, hhmm),
    minuteOfLocal,
  };
}
