import type { Queryable } from '../../store/db.ts';
import { loadEngineStaff } from '../../store/availability.ts';
import type { LocationRow } from '../../store/locations.ts';
import type { ServiceRow } from '../../store/services.ts';
import { DAY_MS, MINUTE_MS, parseIsoDate } from './calendar.ts';
import { computeSlots } from './engine.ts';

/**
 * The staff members for whom (date, startTime) is an offered slot right now, by the same engine and
 * rules as the availability search, so a booking can only take a time a search could have shown.
 */
export async function freeStaffAt(
  q: Queryable,
  a: { location: LocationRow; service: ServiceRow; staffId: string | undefined; date: string; startTime: string; now: Date },
): Promise<{ free: Array<{ id: string; name: string }>; unknownStaff: boolean }> {
  const day = parseIsoDate(a.date);
  const margin = DAY_MS + (a.service.buffer_before_minutes + a.service.buffer_after_minutes + a.service.duration_minutes) * MINUTE_MS;
  const staff = await loadEngineStaff(q, a.location.id, a.service.id, a.staffId, new Date(day * DAY_MS - margin), new Date((day + 1) * DAY_MS + margin));
  if (a.staffId !== undefined && staff.length === 0) return { free: [], unknownStaff: true };
  const result = computeSlots({
    timezone: a.location.timezone,
    slotIntervalMinutes: a.location.slot_interval_minutes,
    minNoticeMinutes: a.location.min_notice_minutes,
    horizonDays: a.location.horizon_days,
    now: a.now.getTime(),
    from: a.date,
    to: a.date,
    service: {
      id: a.service.id,
      durationMinutes: a.service.duration_minutes,
      bufferBeforeMinutes: a.service.buffer_before_minutes,
      bufferAfterMinutes: a.service.buffer_after_minutes,
    },
    staff,
    limit: Number.MAX_SAFE_INTEGER,
  });
  const ids = new Set(result.slots.filter((s) => s.startTime === a.startTime).map((s) => s.staffId));
  if (ids.size === 0) return { free: [], unknownStaff: false };
  const names = await q.query<{ id: string; name: string }>('SELECT id, name FROM staff WHERE id = ANY($1::text[]) ORDER BY id', [[...ids]]);
  return { free: names.rows, unknownStaff: false };
}
