/**
 * Time as the location keeps it, whatever the browser's zone: every date and hour the dashboard
 * shows is computed with Temporal in the location's IANA zone. A day is from the location's local
 * midnight to the next one, so a DST change day is 23 or 25 hours long and its hour lines are
 * real instants one hour apart (the skipped or repeated hour shows as such). The week view lays
 * its days out by the clock instead (`wallDay`), so that 10:00 is on one line across the week.
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
  /** minutes from the day's start of an instant (epoch ms), not clamped: the now-line's place */
  minuteOfInstant(ms: number): number;
  /** the local `HH:MM` at `minute` minutes from the day's start: where a drop or a click lands */
  timeAt(minute: number): string;
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
    minuteOfInstant: (ms) => Math.round((ms - startMs) / MINUTE_MS),
    timeAt: (minute) =>
      Temporal.Instant.fromEpochMilliseconds(startMs + minute * MINUTE_MS)
        .toZonedDateTimeISO(timeZone)
        .toPlainTime()
        .toString({ smallestUnit: 'minute' }),
  };
}

const DAY_MINUTES = 1440;

/** The local time the clocks change at on `date` ("02:00" in spring, "03:00" in autumn in Europe), if they do. */
export function clockChangeAt(date: string, timeZone: string): string | undefined {
  const plain = Temporal.PlainDate.from(date);
  const end = plain.add({ days: 1 }).toZonedDateTime({ timeZone });
  let prev = plain.toZonedDateTime({ timeZone });
  for (let t = prev.add({ hours: 1 }); Temporal.ZonedDateTime.compare(t, end) <= 0; t = t.add({ hours: 1 })) {
    // the old offset's wall clock an hour on is the moment it changed
    if (t.offsetNanoseconds !== prev.offsetNanoseconds) return prev.toPlainTime().add({ hours: 1 }).toString({ smallestUnit: 'minute' });
    prev = t;
  }
  return undefined;
}

/**
 * A day laid out by the clock, for the week view: every day is 24 rows of one hour, a local time
 * is at its wall-clock minute whatever the offset, so the hour labels of the week's gutter hold
 * for every column. On a spring-forward day the skipped hour stays empty; on a fall-back day both
 * runs of the repeated hour share its row (`timeAt` answers the earlier one). The day view keeps
 * real instants (`zonedDay`), where that hour is shown twice.
 */
export function wallDay(date: string, timeZone: string): ZonedDay {
  const plain = Temporal.PlainDate.from(date);
  const startMs = plain.toZonedDateTime({ timeZone }).epochMilliseconds;
  const clamp = (m: number) => Math.max(0, Math.min(DAY_MINUTES, m));
  const wall = (d: Temporal.PlainDate, t: Temporal.PlainTime) => plain.until(d).days * DAY_MINUTES + t.hour * 60 + t.minute;
  const minuteOfLocal = (d: string, hhmm: string): number =>
    clamp(
      hhmm === '24:00'
        ? wall(Temporal.PlainDate.from(d).add({ days: 1 }), new Temporal.PlainTime())
        : wall(Temporal.PlainDate.from(d), Temporal.PlainTime.from(hhmm)),
    );
  return {
    date,
    timeZone,
    startMs,
    lengthMinutes: DAY_MINUTES,
    hours: Array.from({ length: 24 }, (_, h) => ({ minute: h * 60, label: `${String(h).padStart(2, '0')}:00` })),
    minuteOf: (hhmm) => minuteOfLocal(date, hhmm),
    minuteOfLocal,
    minuteOfInstant: (ms) => {
      const at = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(timeZone);
      return wall(at.toPlainDate(), at.toPlainTime());
    },
    timeAt: (minute) => {
      const m = Math.max(0, Math.min(DAY_MINUTES - 1, Math.round(minute)));
      return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    },
  };
}
