import { searchWindow } from '../../domain/availability/search-window.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { MANUAL_WARNING_MESSAGES, type ManualWarning, manualBookingWarnings } from '../../domain/bookings/manual-warnings.ts';
import { forStaff } from '../../domain/scheduling/staff-variants.ts';
import { parseIsoDate } from '../../domain/time/calendar.ts';
import { loadEngineStaff } from '../../store/availability.ts';
import type { Queryable } from '../../store/db.ts';

export interface ManualWarningView {
  code: ManualWarning;
  message: string;
}

export interface ManualTime {
  serviceId: string;
  staffId: string;
  date: string;
  startTime: string;
}

/**
 * The warnings of a manual booking at that time (domain/bookings/manual-warnings.ts), from the
 * staff member's hours and time off as the search loads them. A staff member who does not perform
 * the service gets none here: the create refuses them.
 */
export async function manualWarnings(
  q: Queryable,
  location: LocationRecord,
  service: ServiceRecord,
  time: Omit<ManualTime, 'serviceId'>,
  now: Date,
): Promise<ManualWarningView[]> {
  const epochDay = parseIsoDate(time.date);
  const window = searchWindow(forStaff(service, time.staffId), epochDay, epochDay);
  const [staff] = await loadEngineStaff(q, location.id, service.id, time.staffId, window.from, window.to);
  if (!staff) return [];
  const codes = manualBookingWarnings({
    timezone: location.timezone,
    date: time.date,
    startTime: time.startTime,
    // the staff member's own length and processing (stylist variants)
    service: forStaff(service, staff.id),
    staff,
    now: now.getTime(),
  });
  return codes.map((code) => ({ code, message: MANUAL_WARNING_MESSAGES[code] }));
}
