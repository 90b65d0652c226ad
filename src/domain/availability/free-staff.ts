import type { Queryable } from '../../store/db.ts';
import type { LocationRow } from '../../store/locations.ts';
import type { ServiceRow } from '../../store/services.ts';
import { parseIsoDate } from './calendar.ts';
import { slotsAtLocation } from './location-slots.ts';

/** The staff members for whom (date, startTime) is an offered slot right now. */
export async function freeStaffAt(
  q: Queryable,
  a: { location: LocationRow; service: ServiceRow; staffId: string | undefined; date: string; startTime: string; now: Date },
): Promise<{ free: Array<{ id: string; name: string }>; unknownStaff: boolean }> {
  const day = parseIsoDate(a.date);
  const { result, staffCount } = await slotsAtLocation(q, {
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
  if (a.staffId !== undefined && staffCount === 0) return { free: [], unknownStaff: true };
  const ids = new Set(result.slots.filter((s) => s.startTime === a.startTime).map((s) => s.staffId));
  if (ids.size === 0) return { free: [], unknownStaff: false };
  const names = await q.query<{ id: string; name: string }>('SELECT id, name FROM staff WHERE id = ANY($1::text[]) ORDER BY id', [[...ids]]);
  return { free: names.rows, unknownStaff: false };
}
