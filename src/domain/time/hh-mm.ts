/**
 * "HH:MM" text and minutes after local midnight. The two formatters differ on purpose at 1440: an
 * end of working day reads back as the "24:00" it was given, while a slot's clock time is that of
 * the next day's midnight, "00:00".
 */
import { MINUTES_PER_DAY } from './calendar.ts';

/** "HH:MM" (already pattern-checked, "24:00" included) to minutes after local midnight. */
export function parseHhMm(text: string): number {
  const [h, m] = text.split(':');
  return Number(h) * 60 + Number(m);
}

/** Minutes after local midnight to "HH:MM"; 1440 stays "24:00" so an end of day reads back as given. */
export function formatMinutes(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** HH:MM of a minute of the local day; 1440 (next midnight) wraps to 00:00. */
export function formatHhMm(minuteOfDay: number): string {
  const m = ((minuteOfDay % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  return `${pad2(Math.floor(m / 60))}:${pad2(m % 60)}`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
