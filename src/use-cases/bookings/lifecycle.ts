import type { Queryable } from '../../store/db.ts';
import { appendEvents } from '../../store/booking-events.ts';
import { findBookingForUpdate, lockStaffCalendars, updateBooking, type BookingChange } from '../../store/bookings.ts';
import { findBusinessById } from '../../store/businesses.ts';
import { serviceTiming } from '../../store/services.ts';
import { findStaffById, staffForService } from '../../store/staff.ts';
import { releaseSeat } from '../../store/group-seats.ts';
import { AppError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { eventOf, type Transition } from '../../domain/bookings/event-row.ts';
import { heldRange } from '../../domain/bookings/held-range.ts';
import { resolveLocalSlot } from '../../domain/time/local-slot.ts';
import type { BookingRecord } from '../../domain/bookings/record.ts';
import { OCCUPYING, planTransition, type Action, type EventName } from '../../domain/bookings/states.ts';

export interface NewTime {
  date: string;
  startTime: string;
  staffId?: string | undefined;
}

export interface ChangeRequest {
  /** null on the operator surface, which may act on any business's booking */
  businessId: string | null;
  bookingId: string;
  action: Action;
  now: Date;
  newTime?: NewTime;
  /** the business's slug for the event payload, when the caller knows it (saves a query) */
  salonSlug?: string;
}

/**
 * Every state change after creation, public or business-side, goes through here: lock the row,
 * check the transition, write the new state and its event (and outbox row) in the caller's
 * transaction. The exclusion constraint turns a clash with another booking into a 409.
 */
export async function changeBooking(tx: Queryable, req: ChangeRequest): Promise<BookingRecord> {
  const before = await findBookingForUpdate(tx, req.businessId, req.bookingId);
  if (!before) throw new AppError('booking.not_found');
  const { to, event } = planTransition(req.action, before.status, before.startAt, req.now);

  const change: BookingChange = {
    status: to,
    stateVersion: before.stateVersion + 1,
    acceptanceMode: req.action === 'autoConfirm' ? 'automatic' : req.action === 'accept' ? 'manual' : before.acceptanceMode,
    staffId: before.staffId,
    staffName: before.staffName,
    startAt: before.startAt,
    endAt: before.endAt,
    slot: before.slot,
    proposed: null,
    occupiedStaffId: before.staffId,
    occupiedFrom: before.startAt,
    occupiedTo: before.endAt,
    updatedAt: req.now,
  };

  const timing = await serviceTiming(tx, before.serviceId);
  if (!timing) throw new AppError('catalog.service_not_found');
  const held = (startAt: Date, endAt: Date) => heldRange(startAt, endAt, timing.bufferBeforeMinutes, timing.bufferAfterMinutes);
  const current = held(before.startAt, before.endAt);
  change.occupiedFrom = current.from;
  change.occupiedTo = current.to;

  if (req.action === 'propose' || req.action === 'reschedule') {
    if (before.sessionId !== null) {
      throw new AppError('booking.invalid_transition', 'A group-session booking cannot be moved.');
    }
    if (!req.newTime) throw new AppError('request.validation_failed', 'A new date and startTime are required.');
    const staffId = req.newTime.staffId ?? before.staffId;
    if (staffId === null) throw new AppError('catalog.staff_not_found');
    const staff = await staffForService(tx, staffId, before.serviceId, before.locationId);
    if (!staff) throw new AppError('catalog.staff_not_found');
    const resolved = resolveLocalSlot(before.timezone, req.newTime.date, req.newTime.startTime, timing.durationMinutes, 'body');
    if (!resolved) throw new AppError('booking.slot_unavailable', 'That local time does not exist on that day (DST change).');
    const range = held(resolved.startAt, resolved.endAt);
    // While a proposal is open the proposed time is held, so the guest's acceptance cannot fail.
    change.occupiedStaffId = staff.id;
    change.occupiedFrom = range.from;
    change.occupiedTo = range.to;
    if (req.action === 'propose') {
      change.proposed = { staffId: staff.id, startAt: resolved.startAt, endAt: resolved.endAt, slot: resolved.slot };
    } else {
      Object.assign(change, { staffId: staff.id, staffName: staff.name, ...resolved });
    }
  } else if (req.action === 'acceptProposal') {
    const p = before.proposed;
    if (!p) throw new AppError('booking.invalid_transition', 'There is no proposal to accept.');
    // The proposal held its staff member's time, so acceptance stands even if that member has since
    // stopped offering the service; the name is theirs whatever changed (the id when none is stored).
    const staff = await findStaffById(tx, p.staffId);
    const range = held(p.startAt, p.endAt);
    Object.assign(change, {
      staffId: p.staffId,
      staffName: staff?.name ?? p.staffId,
      startAt: p.startAt,
      endAt: p.endAt,
      slot: p.slot,
      occupiedStaffId: p.staffId,
      occupiedFrom: range.from,
      occupiedTo: range.to,
    });
  } else if (before.status === 'rescheduleProposed') {
    // Leaving a proposal by any other way (decline, cancel): the held range goes back to the
    // appointment itself; the status no longer occupies, so it blocks nothing.
    change.proposed = null;
  }

  // A result that occupies time goes through the staff calendar locks (old and new staff: a swap
  // of two bookings between two staff members must not deadlock); a group seat is outside the
  // constraint.
  if (OCCUPYING.has(change.status) && before.sessionId === null) {
    await lockStaffCalendars(tx, [before.staffId, before.proposed?.staffId, change.occupiedStaffId]);
  }
  if ((await updateBooking(tx, before.id, change)) === 'time_taken') {
    throw new AppError('booking.slot_unavailable', 'That time clashes with another booking.');
  }

  // A group seat is given back the moment its booking stops holding it.
  if (before.sessionId !== null && (change.status === 'cancelled' || change.status === 'declined')) {
    await releaseSeat(tx, before.sessionId);
  }

  const after: BookingRecord = {
    ...before,
    status: change.status,
    stateVersion: change.stateVersion,
    acceptanceMode: change.acceptanceMode,
    staffId: change.staffId,
    staffName: change.staffName,
    startAt: change.startAt,
    endAt: change.endAt,
    slot: change.slot,
    proposed: change.proposed,
    updatedAt: change.updatedAt,
  };
  await recordEvent(tx, after, event, { id: newId('trn'), from: before.status, occurredAt: req.now }, req.salonSlug);
  return after;
}

/** Writes the event row (with its exact webhook payload) and the outbox row for it. */
async function recordEvent(
  tx: Queryable,
  booking: BookingRecord,
  event: EventName,
  transition: Transition,
  knownSalonSlug?: string,
): Promise<void> {
  const salonSlug = knownSalonSlug ?? (await findBusinessById(tx, booking.businessId))!.slug;
  await appendEvents(tx, [eventOf(booking, event, transition, salonSlug)]);
}
