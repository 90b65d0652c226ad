import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { parseIsoDate } from '../../domain/time/calendar.ts';
import type { Queryable } from '../../store/db.ts';
import { slotsAtLocation } from './location-slots.ts';

/** The staff members for whom (date, startTime) is an offered slot right now. */
export async function freeStaffAt(
  q: Queryable,
  a: { location: LocationRecord; service: ServiceRecord; staffId: string | undefined; date: string; startTime: string; now: Date },
): Promise<{ free: Array<{ id: string; name: string }>; unknownStaff: boolean }> {
  const day = parseIsoDate(a.date);
  const { result, staff } = await slotsAtLocation(q, {
    location: a.location,
    service: a.service,
    staffId: a.staffId,
    from: a.date,
    to: a.date,
    firstDay: day,
    lastDay: day,
    now: a.now,
    limit: Number.MAX_SAFE_INTEGER,
  });
  if (a.staffId !== undefined && staff.length === 0) return { free: [], unknownStaff: true };
  const ids = new Set(result.slots.filter((s) => s.startTime === a.startTime).map((s) => s.staffId));
  return { free: staff.filter((s) => ids.has(s.id)).map(({ id, name }) => ({ id, name })), unknownStaff: false };
}
