import type { BookingView } from '../bookings/view.ts';
import { localToInstant } from '../time/wall-clock.ts';

/**
 * The time a booking kept, from a view of it: its confirmed slot, else the proposed one, else the
 * requested start (a minute: a request's view names no end). ISO instants.
 */
export function keptTimes(views: ReadonlyArray<BookingView | undefined>): Array<{ from: string; to: string }> {
  const out: Array<{ from: string; to: string }> = [];
  for (const v of views) {
    if (!v) continue;
    const slots: Array<{ date: string | null; startTime: string | null; endTime?: string; timezone: string }> = [];
    if (v.confirmedSlot) slots.push(v.confirmedSlot);
    if (v.proposedSlot) slots.push(v.proposedSlot);
    slots.push(v.requestedSlot);
    for (const s of slots) {
      if (!s.date || !s.startTime) continue;
      const start = localToInstant({ date: s.date, time: s.startTime }, s.timezone);
      const end = s.endTime ? localToInstant({ date: s.date, time: s.endTime }, s.timezone) : undefined;
      if (!start) continue;
      out.push({ from: start.toISOString(), to: (end ?? new Date(start.getTime() + 60_000)).toISOString() });
    }
  }
  return out;
}
