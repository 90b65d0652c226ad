import { computeSlots } from '../../domain/availability/engine.ts';
import { boundSlots, MAX_OPEN_SLOTS, openSlotBound, openSlots } from '../../domain/availability/open-slots.ts';
import { searchWindow } from '../../domain/availability/search-window.ts';
import type { EngineResource, EngineResult } from '../../domain/availability/types.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { withServiceOverrides } from '../../domain/scheduling/staff-variants.ts';
import { loadEngineResources, loadEngineStaff } from '../../store/availability.ts';
import type { Queryable } from '../../store/db.ts';
import { occupancyRead, type CacheUse } from '../read-cache.ts';

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
    cache?: CacheUse | undefined;
  },
): Promise<{ result: EngineResult; staff: ReadonlyArray<{ id: string; name: string; position: number | null }> }> {
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
      segments: a.service.segments,
    },
  };
  const rules = {
    now: a.now.getTime(),
    minNoticeMinutes: a.location.minNoticeMinutes,
    horizonDays: a.location.horizonDays,
    limit: a.limit,
  };
  if (a.cache) {
    // A search: every slot of the range, kept under the versions, then this request's notice,
    // horizon and limit (open-slots.ts). The ids name everything the slots depend on that the
    // versions do not: the location's and service's own rules are catalogue, under the version.
    // A range too dense to keep (a 1-minute grid, many staff) keeps only its inputs, and each
    // search runs the engine on them with its own bounds.
    const days = a.lastDay - a.firstDay + 1;
    const entry = await occupancyRead(
      a.cache,
      ['open', a.location.id, a.service.id, a.staffId, a.from, a.to],
      async () => {
        // Taken before the read, so the answer is dropped no later than the first hold in it ends.
        const readAt = performance.now();
        const staff = withServiceOverrides(
          await loadEngineStaff(q, a.location.id, a.service.id, a.staffId, window.from, window.to),
          a.service,
        );
        const needed = await neededResources(q, a.service, window);
        const dense = openSlotBound(staff, a.location.slotIntervalMinutes, days) > MAX_OPEN_SLOTS;
        return {
          staff,
          resources: needed.resources,
          slots: dense ? null : openSlots({ ...engine, staff, resources: needed.resources }),
          holdsEndAt: readAt + Math.min(firstHoldEnds(staff), needed.heldForMs ?? Number.POSITIVE_INFINITY),
        };
      },
      (e) =>
        (e.slots?.length ?? 0) +
        e.staff.reduce((n, s) => n + s.busy.length + s.timeOff.length + s.workingHours.length + 1, 0) +
        e.resources.reduce((n, r) => n + r.units.reduce((m, u) => m + u.length + 1, 0), 0),
      // A hold's end is no write, so no version announces it; this process's monotonic clock does,
      // measured from the database's own count of the time the hold had left.
      (e) => performance.now() < e.holdsEndAt,
    );
    const result = entry.slots
      ? boundSlots(entry.slots, rules)
      : computeSlots({ ...engine, ...rules, staff: entry.staff, resources: entry.resources });
    return { result, staff: entry.staff };
  }
  const staff = withServiceOverrides(await loadEngineStaff(q, a.location.id, a.service.id, a.staffId, window.from, window.to), a.service);
  const { resources } = await neededResources(q, a.service, window);
  const result = computeSlots({ ...engine, ...rules, staff, resources });
  return { result, staff };
}

/** The service's resources with their units' use; no round trip for a service that needs none. */
export function neededResources(
  q: Queryable,
  service: ServiceRecord,
  window: { from: Date; to: Date },
): Promise<{ resources: Array<EngineResource & { name: string }>; heldForMs: number | null }> {
  if (service.requiredResourceIds.length === 0) return Promise.resolve({ resources: [], heldForMs: null });
  return loadEngineResources(q, service.id, window.from, window.to);
}

/** How long the first live hold among these staff still lives (ms); Infinity without one. */
function firstHoldEnds(staff: ReadonlyArray<{ heldForMs: number | null }>): number {
  let first = Number.POSITIVE_INFINITY;
  for (const s of staff) if (s.heldForMs !== null && s.heldForMs < first) first = s.heldForMs;
  return first;
}
