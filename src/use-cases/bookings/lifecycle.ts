import type { Queryable } from '../../store/db.ts';
import { appendEvents } from '../../store/booking-events.ts';
import { findBookingForUpdate, lockStaffCalendars, updateBooking } from '../../store/bookings.ts';
import { findBusinessById } from '../../store/businesses.ts';
import { serviceTiming } from '../../store/services.ts';
import { findStaffById, staffForService } from '../../store/staff.ts';
import { releaseSeat } from '../../store/group-seats.ts';
import { AppError } from '../../domain/errors.ts';
import { type ChangeAction, type ChangeContext, newTimeStaffId, planChange } from '../../domain/bookings/plan-change.ts';
import type { BookingRecord } from '../../domain/bookings/record.ts';

export type { NewTime } from '../../domain/bookings/plan-change.ts';

export interface ChangeRequest extends ChangeAction {
  /** null on the operator surface, which may act on any business's booking */
  businessId: string | null;
  bookingId: string;
  /** the business's slug for the event payload, when the caller knows it (saves a query) */
  salonSlug?: string;
}

/**
 * Every state change after creation, public or business-side, goes through here: lock the row, read
 * what the plan needs, let planChange decide, then write the new state and its event (and outbox
 * row) in the caller's transaction. The exclusion constraint turns a clash with another booking
 * into a 409.
 */
export async function changeBooking(tx: Queryable, req: ChangeRequest): Promise<BookingRecord> {
  const before = await findBookingForUpdate(tx, req.businessId, req.bookingId);
  if (!before) throw new AppError('booking.not_found');
  const plan = planChange(before, req, await readContext(tx, before, req));

  if (plan.lockStaff.length > 0) await lockStaffCalendars(tx, plan.lockStaff);
  if ((await updateBooking(tx, before.id, plan.change)) === 'time_taken') {
    throw new AppError('booking.slot_unavailable', 'That time clashes with another booking.');
  }
  if (plan.releaseSeatOf !== null) await releaseSeat(tx, plan.releaseSeatOf);
  await appendEvents(tx, plan.events);
  return plan.after;
}

/** Reads only what the action can use; the plan, not this, decides what a missing row means. */
async function readContext(tx: Queryable, before: BookingRecord, req: ChangeRequest): Promise<ChangeContext> {
  const timing = await serviceTiming(tx, before.serviceId);
  let newStaff: ChangeContext['newStaff'];
  let proposedStaff: ChangeContext['proposedStaff'];
  const moves = req.action === 'propose' || req.action === 'reschedule';
  const staffId = newTimeStaffId(before, req.newTime);
  if (moves && timing && before.sessionId === null && req.newTime && staffId !== null) {
    newStaff = await staffForService(tx, staffId, before.serviceId, before.locationId);
  }
  if (req.action === 'acceptProposal' && timing && before.proposed) {
    proposedStaff = await findStaffById(tx, before.proposed.staffId);
  }
  const salonSlug = req.salonSlug ?? (await findBusinessById(tx, before.businessId))!.slug;
  return { timing, newStaff, proposedStaff, salonSlug };
}
