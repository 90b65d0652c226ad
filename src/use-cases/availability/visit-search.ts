import { searchDays } from '../../domain/availability/date-range.ts';
import type { VisitSlot } from '../../domain/availability/visit.ts';
import type { LocationRecord } from '../../domain/catalog-records.ts';
import type { Queryable } from '../../store/db.ts';
import { quotaUsedUp } from './quota.ts';
import { visitServices, visitSlotsAtLocation } from './visit-slots.ts';

export interface VisitSearchInput {
  location: LocationRecord;
  serviceIds: readonly string[];
  staffId?: string | undefined;
  from: string;
  to: string;
  now: Date;
  slotLimit: number;
}

/** A slot of a visit: the whole visit, and its parts back to back. */
export interface VisitSearchSlot {
  date: string;
  startTime: string;
  endTime: string;
  serviceId: string;
  staffId: string;
  visit: Array<{ serviceId: string; staffId: string; startTime: string; endTime: string }>;
}

/**
 * POST /v1/availability/search with `serviceIds` (salon-scheduling.md "Visits"): the times at which
 * every part fits in order. Read fresh each time: the open-slots cache keeps one service's slots,
 * and a visit's depend on several services' staff and resources at once.
 */
export async function searchVisitAvailability(
  q: Queryable,
  input: VisitSearchInput,
): Promise<{ slots: VisitSearchSlot[]; suppressed: boolean; total: number }> {
  const { firstDay, lastDay } = searchDays(input.from, input.to);
  const staffIds = input.serviceIds.map(() => input.staffId);
  const services = await visitServices(q, input.location, input.serviceIds, staffIds, 'body.serviceIds');
  if (services.some((s) => !s.onlineBookable)) return { slots: [], suppressed: true, total: 0 };
  if (await quotaUsedUp(q, input.location.businessId, input.now, undefined)) return { slots: [], suppressed: true, total: 0 };
  const { result } = await visitSlotsAtLocation(q, {
    location: input.location,
    services,
    staffIds,
    from: input.from,
    to: input.to,
    firstDay,
    lastDay,
    now: input.now,
    limit: input.slotLimit,
  });
  return { slots: result.slots.map(toVisitSlot), suppressed: false, total: result.total };
}

function toVisitSlot(s: VisitSlot): VisitSearchSlot {
  return {
    date: s.date,
    startTime: s.startTime,
    endTime: s.endTime,
    serviceId: s.serviceId,
    staffId: s.staffId,
    visit: s.visit.map((p) => ({ serviceId: p.serviceId, staffId: p.staffId, startTime: p.startTime, endTime: p.endTime })),
  };
}
