import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { parseIsoDate } from '../../domain/time/calendar.ts';
import { type AssignableStaff, staffInTryOrder } from '../../domain/bookings/staff-assignment.ts';
import { bookedMinutesOn } from '../../store/availability.ts';
import type { Queryable } from '../../store/db.ts';
import { slotsAtLocation } from './location-slots.ts';

/** The staff members for whom (date, startTime) is an offered slot right now. */
export async function freeStaffAt(
  q: Queryable,
  a: { location: LocationRecord; service: ServiceRecord; staffId: string | undefined; date: string; startTime: string; now: Date },
): Promise<{ free: AssignableStaff[]; unknownStaff: boolean }> {
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
  return { free: staff.filter((s) => ids.has(s.id)).map(({ id, name, position }) => ({ id, name, position })), unknownStaff: false };
}

/**
 * The free staff members in the order a booking or hold asked for without one tries them: the
 * location's staffAssignment (domain/bookings/staff-assignment.ts); `balanced` reads that local
 * day's booked minutes.
 */
export async function inAssignmentOrder(
  q: Queryable,
  location: LocationRecord,
  date: string,
  free: readonly AssignableStaff[],
): Promise<AssignableStaff[]> {
  if (free.length < 2 || location.staffAssignment === 'ordered') return staffInTryOrder(free, 'ordered');
  return staffInTryOrder(
    free,
    'balanced',
    await bookedMinutesOn(
      q,
      free.map((s) => s.id),
      date,
    ),
  );
}
