import { computeSlots } from '../../domain/availability/engine.ts';
import { searchWindow } from '../../domain/availability/search-window.ts';
import type { EngineResult } from '../../domain/availability/types.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { loadEngineStaff } from '../../store/availability.ts';
import type { Queryable } from '../../store/db.ts';
import { occupancyRead, type AvailabilityCache } from './read-cache.ts';

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
    /** searches only: a booking's own check reads in its transaction */
    cache?: AvailabilityCache | undefined;
  },
): Promise<{ result: EngineResult; staff: ReadonlyArray<{ id: string; name: string }> }> {
  const window = searchWindow(a.service, a.firstDay, a.lastDay);
  const staff = await occupancyRead(a.cache, ['staff', a.location.id, a.service.id, a.staffId, window.from, window.to], () =>
    loadEngineStaff(q, a.location.id, a.service.id, a.staffId, window.from, window.to),
  );
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
