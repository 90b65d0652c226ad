import { MINUTE_MS, parseIsoDate } from '../availability/calendar.ts';
import { localStart, wallClock, zoneDay } from '../availability/zone.ts';
import { invalidField } from '../errors.ts';
import type { LocalSlot } from './record.ts';

export interface ResolvedSlot {
  startAt: Date;
  endAt: Date;
  slot: LocalSlot;
}

/**
 * A wall-clock start in the location's zone as instants. A time that does not exist that day (DST
 * gap) gives null; a repeated time means its first occurrence, as availability offers it.
 */
export function resolveLocalSlot(
  timeZone: string,
  date: string,
  startTime: string,
  durationMinutes: number,
  path = 'body.slot',
): ResolvedSlot | null {
  let epochDay: number;
  try {
    epochDay = parseIsoDate(date);
  } catch {
    throw invalidField(`${path}.date`, 'is not a real date');
  }
  const [h, m] = startTime.split(':').map(Number) as [number, number];
  const day = zoneDay(timeZone, epochDay);
  const start = localStart(day, h * 60 + m);
  if (start === null) return null;
  const end = start + durationMinutes * MINUTE_MS;
  return {
    startAt: new Date(start),
    endAt: new Date(end),
    slot: { date, startTime, endTime: wallClock(day, end) },
  };
}

/** The range a booking holds: the appointment widened by the service's buffers. */
export function heldRange(
  startAt: Date,
  endAt: Date,
  bufferBeforeMinutes: number,
  bufferAfterMinutes: number,
): { from: Date; to: Date } {
  return {
    from: new Date(startAt.getTime() - bufferBeforeMinutes * MINUTE_MS),
    to: new Date(endAt.getTime() + bufferAfterMinutes * MINUTE_MS),
  };
}
