import type { ServiceRecord } from '../catalog-records.ts';
import { DAY_MS, MINUTE_MS } from '../time/calendar.ts';

/**
 * The UTC window that holds every instant of local days firstDay..lastDay: local days lie within
 * ±14 h of UTC, and a slot's buffers and duration reach further still.
 */
export function searchWindow(service: ServiceRecord, firstDay: number, lastDay: number): { from: Date; to: Date } {
  const margin = DAY_MS + (service.bufferBeforeMinutes + service.bufferAfterMinutes + service.durationMinutes) * MINUTE_MS;
  return { from: new Date(firstDay * DAY_MS - margin), to: new Date((lastDay + 1) * DAY_MS + margin) };
}
