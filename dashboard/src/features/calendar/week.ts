import { Temporal } from 'temporal-polyfill';
import type { Agenda, BusinessBooking } from '../../lib/api.ts';
import { addDays } from '../../lib/time.ts';

/** A drag or an arrow key moves a booking in steps of this many minutes. */
export const MOVE_STEP_MINUTES = 15;

/** The Monday of the ISO week that holds `date`: the week view always shows Monday to Sunday. */
export function weekStart(date: string): string {
  return addDays(date, 1 - Temporal.PlainDate.from(date).dayOfWeek);
}

export function weekDates(date: string): string[] {
  const monday = weekStart(date);
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

/** `HH:MM` → minutes of the local day; "24:00" is 1440. */
export function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

export function hhmm(minutes: number): string {
  const m = Math.max(0, Math.min(24 * 60 - 1, Math.round(minutes)));
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

export interface FreeTimeQuery {
  /** consecutive days from the first one asked, each the location's agenda */
  days: ReadonlyArray<Agenda>;
  staffId: string;
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  /** candidate starts go every this many minutes from the start of each working interval */
  stepMinutes: number;
  /** location-local date and time now: nothing earlier is proposed */
  now: { date: string; time: string };
}

/**
 * The first time, day by day, when the staff member works for the whole service and neither a
 * booking nor time off is in the way (buffers included, processing time counted as busy). A
 * proposal only: the create still decides, and refuses a clash this cannot see (a resource, a hold).
 */
export function nextFreeTime(q: FreeTimeQuery): { date: string; time: string } | undefined {
  for (const day of q.days) {
    if (day.date < q.now.date) continue;
    const staff = day.staff.find((s) => s.id === q.staffId);
    if (!staff) continue;
    const earliest = day.date === q.now.date ? minutesOf(q.now.time) : 0;
    const busy: Array<[number, number]> = [
      ...staff.timeOff.map((t): [number, number] => [minutesOf(t.from), minutesOf(t.to)]),
      ...staff.bookings.flatMap((b): Array<[number, number]> => {
        const slot = held(b);
        if (!slot || slot.date !== day.date) return [];
        const start = minutesOf(slot.startTime);
        if (!slot.endTime) return [[start, start + q.durationMinutes]];
        const end = minutesOf(slot.endTime);
        // a booking across midnight is busy until the day's end
        return [[start, end <= start ? 24 * 60 : end]];
      }),
    ];
    const sorted = [...staff.workingHours].sort((a, b) => a.start.localeCompare(b.start));
    for (const w of sorted) {
      const open = minutesOf(w.start);
      const close = minutesOf(w.end);
      for (let t = open; t + q.durationMinutes <= close; t += q.stepMinutes) {
        if (t < earliest) continue;
        const from = t - q.bufferBeforeMinutes;
        const to = t + q.durationMinutes + q.bufferAfterMinutes;
        if (busy.some(([s, e]) => s < to && e > from)) continue;
        return { date: day.date, time: hhmm(t) };
      }
    }
  }
  return undefined;
}

/** The time a booking holds: confirmed, else proposed, else requested (without an end then). */
function held(b: BusinessBooking): { date: string; startTime: string; endTime?: string } | undefined {
  if (b.confirmedSlot) return b.confirmedSlot;
  if (b.proposedSlot) return b.proposedSlot;
  if (b.requestedSlot.date && b.requestedSlot.startTime) return { date: b.requestedSlot.date, startTime: b.requestedSlot.startTime };
  return undefined;
}
