import type { Queryable } from '../../store/db.ts';
import { loadEngineStaff } from '../../store/availability.ts';
import type { LocationRecord, ServiceRecord } from '../catalog-records.ts';
import { DAY_MS, MINUTE_MS } from '../time/calendar.ts';
import { computeSlots } from './engine.ts';
import type { EngineResult } from './types.ts';

/**
 * The UTC window that holds every instant of local days firstDay..lastDay: local days lie within
 * ±14 h of UTC, and a slot's buffers and duration reach further still.
 */
export function searchWindow(service: ServiceRecord, firstDay: number, lastDay: number): { from: Date; to: Date } {
  const margin = DAY_MS + (service.bufferBeforeMinutes + service.bufferAfterMinutes + service.durationMinutes) * MINUTE_MS;
  return { from: new Date(firstDay * DAY_MS - margin), to: new Date((lastDay + 1) * DAY_MS + margin) };
}

/**
 * Runs the engine for one service at one location over local dates, with the location's rules. The
 * search and the booking's own check both come through here, so a booking can only take a time a
 * search could have shown.
 */
export async function slotsAtLocation(
  q: Queryable,
  a: {
    location: LocationRecord;
    service: ServiceRecord;
    staffId: string | undefined;
    from: string;
    to: string;
    firstDay: number;
    lastDay: number;
    now: Date;
    limit: number;
  },
): Promise<{ result: EngineResult; staff: ReadonlyArray<{ id: string; name: string }> }> {
  const window = searchWindow(a.service, a.firstDay, a.lastDay);
  const staff = await loadEngineStaff(q, a.location.id, a.service.id, a.staffId, window.from, window.to);
  const result = computeSlots({
    timezone: a.location.timezone,
    slotIntervalMinutes: a.location.slotIntervalMinutes,
    minNoticeMinutes: a.location.minNoticeMinutes,
    horizonDays: a.location.horizonDays,
    now: a.now.getTime(),
    from: a.from,
    to: a.to,
    service: {
      id: a.service.id,
      durationMinutes: a.service.durationMinutes,
      bufferBeforeMinutes: a.service.bufferBeforeMinutes,
      bufferAfterMinutes: a.service.bufferAfterMinutes,
    },
    staff,
    limit: a.limit,
  });
  return { result, staff };
}
