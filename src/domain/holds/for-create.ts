import { AppError } from '../errors.ts';
import type { HoldRecord } from './record.ts';

/**
 * Whether a create may use this hold (guest-side.md "Holds"): it must exist in the business, still
 * be live, not have started, and name the same location, service, staff member (when the body names
 * one) and slot; the time the service takes now (duration and buffers) must be the time held, so
 * the booking can only fail on the hold.
 */
export function checkHoldForCreate(
  hold: HoldRecord | undefined,
  want: { locationId: string; serviceId: string; staffId: string | undefined; slot: { date: string; startTime: string } },
  now: Date,
  resolved?: { startAt: Date; endAt: Date; held: { from: Date; to: Date } },
): HoldRecord {
  if (!hold) throw new AppError('booking.hold_not_found');
  if (hold.status !== 'active') throw new AppError('booking.hold_expired');
  // A plain create never books a started slot; a hold taken just before the start does not either.
  if (hold.startAt.getTime() <= now.getTime()) throw new AppError('booking.hold_expired', 'The held time has already started.');
  const same =
    // a visit's hold is used by a visit's create only (all its parts at once)
    hold.serviceIds === undefined &&
    hold.visitHoldId === undefined &&
    hold.locationId === want.locationId &&
    hold.serviceId === want.serviceId &&
    (want.staffId === undefined || hold.staffId === want.staffId) &&
    hold.slot.date === want.slot.date &&
    hold.slot.startTime === want.slot.startTime &&
    (resolved === undefined ||
      (resolved.startAt.getTime() === hold.startAt.getTime() &&
        resolved.endAt.getTime() === hold.endAt.getTime() &&
        resolved.held.from.getTime() === hold.held.from.getTime() &&
        resolved.held.to.getTime() === hold.held.to.getTime()));
  if (!same) throw new AppError('booking.hold_mismatch');
  return hold;
}
