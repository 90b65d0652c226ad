import type { ServiceRecord } from '../catalog-records.ts';
import { longestDurationMinutes } from '../scheduling/staff-variants.ts';
import { DAY_MS, MINUTE_MS } from '../time/calendar.ts';

/**
 * The UTC window that holds every instant of local days firstDay..lastDay: local days lie within
 * ±14 h of UTC, and a slot's buffers and duration reach further still.
 */
export function searchWindow(service: ServiceRecord, firstDay: number, lastDay: number): { from: Date; to: Date } {
  // the longest staff member's variant, so no one's appointment reaches past the window
  const margin = DAY_MS + (service.bufferBeforeMinutes + service.bufferAfterMinutes + longestDurationMinutes(service)) * MINUTE_MS;
  return { from: new Date(firstDay * DAY_MS - margin), to: new Date((lastDay + 1) * DAY_MS + margin) };
}
