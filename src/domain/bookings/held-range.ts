import { MINUTE_MS } from '../time/calendar.ts';

/** The range a booking holds: the appointment widened by the service's buffers. */
export function heldRange(startAt: Date, endAt: Date, bufferBeforeMinutes: number, bufferAfterMinutes: number): { from: Date; to: Date } {
  return {
    from: new Date(startAt.getTime() - bufferBeforeMinutes * MINUTE_MS),
    to: new Date(endAt.getTime() + bufferAfterMinutes * MINUTE_MS),
  };
}
