import { AppError } from '../errors.ts';
import type { HoldRecord } from './record.ts';

/**
 * Whether a create may use this hold (guest-side.md "Holds"): it must exist in the business, still
 * be live, and name the same location, service, staff member (when the body names one) and slot;
 * the time the service takes now must be the time held, so the booking can only fail on the hold.
 */
export function checkHoldForCreate(
  hold: HoldRecord | undefined,
  want: { locationId: string; serviceId: string; staffId: string | undefined; slot: { date: string; startTime: string } },
  resolved?: { startAt: Date; endAt: Date },
): HoldRecord {
  if (!hold) throw new AppError('booking.hold_not_found');
  if (hold.status !== 'active') throw new AppError('booking.hold_expired');
  const same =
    hold.locationId === want.locationId &&
    hold.serviceId === want.serviceId &&
    (want.staffId === undefined || hold.staffId === want.staffId) &&
    hold.slot.date === want.slot.date &&
    hold.slot.startTime === want.slot.startTime &&
    (resolved === undefined ||
      (resolved.startAt.getTime() === hold.startAt.getTime() && resolved.endAt.getTime() === hold.endAt.getTime()));
  if (!same) throw new AppError('booking.hold_mismatch');
  return hold;
}
