import { computeSlots } from '../../domain/availability/engine.ts';
import { boundSlots, openSlots } from '../../domain/availability/open-slots.ts';
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
  const engine = {
    timezone: a.location.timezone,
    slotIntervalMinutes: a.location.slotIntervalMinutes,
    from: a.from,
    to: a.to,
    service: {
      id: a.service.id,
      durationMinutes: a.service.durationMinutes,
      bufferBeforeMinutes: a.service.bufferBeforeMinutes,
      bufferAfterMinutes: a.service.bufferAfterMinutes,
    },
  };
  if (a.cache) {
    // A search: every slot of the range, kept under the versions, then this request's notice,
    // horizon and limit (open-slots.ts). The ids name everything the slots depend on that the
    // versions do not: the location's and service's own rules are catalogue, under the version.
    const open = await occupancyRead(a.cache, ['open', a.location.id, a.service.id, a.staffId, a.from, a.to], async () => {
      const staff = await loadEngineStaff(q, a.location.id, a.service.id, a.staffId, window.from, window.to);
      return { staff: staff.map(({ id, name }) => ({ id, name })), slots: openSlots({ ...engine, staff }) };
    });
    const rules = {
      now: a.now.getTime(),
      minNoticeMinutes: a.location.minNoticeMinutes,
      horizonDays: a.location.horizonDays,
      limit: a.limit,
    };
    return { result: boundSlots(open.slots, rules), staff: open.staff };
  }
  const staff = await loadEngineStaff(q, a.location.id, a.service.id, a.staffId, window.from, window.to);
  const result = computeSlots({
    ...engine,
    minNoticeMinutes: a.location.minNoticeMinutes,
    horizonDays: a.location.horizonDays,
    now: a.now.getTime(),
    staff,
    limit: a.limit,
  });
  return { result, staff };
}
