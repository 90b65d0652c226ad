import type { QuietHours } from '../guest-settings/settings.ts';
import { MINUTE_MS } from '../time/calendar.ts';
import { parseHhMm } from '../time/hh-mm.ts';
import { instantToLocal, localToInstant } from '../time/wall-clock.ts';

/** Whether a location-local minute of the day falls in the quiet hours (start inclusive, end exclusive; may span midnight). */
export function inQuietHours(minuteOfDay: number, quiet: QuietHours): boolean {
  const start = parseHhMm(quiet.start);
  const end = parseHhMm(quiet.end);
  return start < end ? minuteOfDay >= start && minuteOfDay < end : minuteOfDay >= start || minuteOfDay < end;
}

/** The local minute of the day an instant shows on the location's wall clock. */
export function localMinuteOf(instant: Date, timeZone: string): { date: string; minute: number } {
  const { date, time } = instantToLocal(instant, timeZone);
  return { date, minute: parseHhMm(time) };
}

function previousDate(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/**
 * When a reminder `minutesBefore` the start is sent: at its due time, or, when that falls in the
 * location's quiet hours, in the last minute before those quiet hours began (earlier, never later:
 * a guest is not woken, and never reminded after the time they were promised). Wall-clock rules come
 * from the zone database, so a quiet night that holds a daylight-saving change is still measured in
 * the times its clocks show.
 */
export function reminderSendAt(startAt: Date, minutesBefore: number, timeZone: string, quiet: QuietHours | null): Date {
  const due = new Date(startAt.getTime() - minutesBefore * MINUTE_MS);
  if (quiet === null) return due;
  const { date, minute } = localMinuteOf(due, timeZone);
  if (!inQuietHours(minute, quiet)) return due;
  const start = parseHhMm(quiet.start);
  // A night that spans midnight began the evening before when the due time is after midnight.
  const beganOn = start > parseHhMm(quiet.end) && minute < start ? previousDate(date) : date;
  const began = localToInstant({ date: beganOn, time: quiet.start }, timeZone)!;
  // The start of the minute before they began, never after the due time itself.
  const at = Math.min(began.getTime() - MINUTE_MS, due.getTime());
  return new Date(Math.floor(at / MINUTE_MS) * MINUTE_MS);
}
