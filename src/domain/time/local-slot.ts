import type { LocalSlot } from '../bookings/record.ts';
import { invalidField } from '../errors.ts';
import { MINUTE_MS, parseIsoDate } from './calendar.ts';
import { parseHhMm } from './hh-mm.ts';
import { localStart, wallClock, zoneDay } from './zone-day.ts';

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
  const day = zoneDay(timeZone, epochDay);
  const start = localStart(day, parseHhMm(startTime));
  if (start === null) return null;
  const end = start + durationMinutes * MINUTE_MS;
  return {
    startAt: new Date(start),
    endAt: new Date(end),
    slot: { date, startTime, endTime: wallClock(day, end) },
  };
}
