import { AppError } from '../errors.ts';
import { newId } from '../ids.ts';
import { resolveLocalSlot } from '../time/local-slot.ts';
import type { BookingChange } from './change.ts';
import { type BookingEventRow, type EventActor, eventOf } from './event-row.ts';
import { heldRange } from './held-range.ts';
import type { ServiceShape } from '../scheduling/segments.ts';
import { shapeOverride, type StaffVariant } from '../scheduling/staff-variants.ts';
import type { BookingRecord } from './record.ts';
import { OCCUPYING, planTransition, type Action } from './states.ts';

export interface NewTime {
  date: string;
  startTime: string;
  staffId?: string | undefined;
}

export interface ChangeAction {
  action: Action;
  now: Date;
  newTime?: NewTime | undefined;
  /** the business's reason for a decline or cancel, kept on the event */
  reason?: string | undefined;
  /** who makes the change, named on its event (operator event reads); null when not said */
  actor?: EventActor | undefined;
}

/** A staff member as the plan needs one: who holds the time, under which name. */
export interface PlanStaff {
  id: string;
  name: string;
}

/**
 * What the use case read for the plan. `timing` undefined: the service is gone. `newStaff`: the
 * staff member of `newTime` (or the booking's own) who offers the service here, undefined when none
 * does. `proposedStaff`: the proposal's staff member, whatever they offer now.
 */
export interface ChangeContext {
  timing: (ServiceShape & { requiredResourceIds?: readonly string[]; staffVariants?: readonly StaffVariant[] }) | undefined;
  newStaff?: PlanStaff | undefined;
  proposedStaff?: PlanStaff | undefined;
  salonSlug: string;
}

export interface ChangePlan {
  change: BookingChange;
  /** the booking as it is after the change, as the event describes it */
  after: BookingRecord;
  events: BookingEventRow[];
  /** staff calendars to lock before the write (old and new staff), empty when nothing is occupied */
  lockStaff: (string | null | undefined)[];
  /** the group session whose seat the change gives back */
  releaseSeatOf: string | null;
}

/** The staff member whose time `newTime` asks for: the named one, else the booking's own. */
export function newTimeStaffId(before: BookingRecord, newTime: NewTime | undefined): string | null {
  return newTime?.staffId ?? before.staffId;
}

/**
 * Every state change after creation, decided without I/O: the transition gate, the new row, what it
 * holds and the event. Throws the catalog error the change ends in, in the order the checks were
 * always made (transition, service, then the new time).
 */
export function planChange(before: BookingRecord, req: ChangeAction, ctx: ChangeContext): ChangePlan {
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
    processing: [],
    resourceIds: [],
    updatedAt: req.now,
  };

  const { timing } = ctx;
  if (!timing) throw new AppError('catalog.service_not_found');
  // the service as a staff member performs it (their stylist variant's duration and segments)
  const timingOf = (staffId: string | null) => {
    const override = staffId === null ? undefined : shapeOverride({ ...timing, staffVariants: timing.staffVariants ?? [] }, staffId);
    return override ? { ...timing, ...override } : timing;
  };
  const held = (startAt: Date, endAt: Date, staffId: string | null) => heldRange(startAt, endAt, timingOf(staffId));
  const current = held(before.startAt, before.endAt, before.staffId);
  change.occupiedFrom = current.from;
  change.occupiedTo = current.to;
  change.processing = current.processing;
  change.resourceIds = current.resourceIds;

  if (req.action === 'propose' || req.action === 'reschedule') {
    if (before.sessionId !== null) {
      throw new AppError('booking.invalid_transition', 'A group-session booking cannot be moved.');
    }
    if (!req.newTime) throw new AppError('request.validation_failed', 'A new date and startTime are required.');
    if (newTimeStaffId(before, req.newTime) === null) throw new AppError('catalog.staff_not_found');
    const staff = ctx.newStaff;
    if (!staff) throw new AppError('catalog.staff_not_found');
    const theirs = timingOf(staff.id);
    const resolved = resolveLocalSlot(before.timezone, req.newTime.date, req.newTime.startTime, theirs.durationMinutes, 'body');
    if (!resolved) throw new AppError('booking.slot_unavailable', 'That local time does not exist on that day (DST change).');
    const range = held(resolved.startAt, resolved.endAt, staff.id);
    // While a proposal is open the proposed time is held, so the guest's acceptance cannot fail.
    change.occupiedStaffId = staff.id;
    change.occupiedFrom = range.from;
    change.occupiedTo = range.to;
    change.processing = range.processing;
    change.resourceIds = range.resourceIds;
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
    const range = held(p.startAt, p.endAt, p.staffId);
    Object.assign(change, {
      staffId: p.staffId,
      staffName: ctx.proposedStaff?.name ?? p.staffId,
      startAt: p.startAt,
      endAt: p.endAt,
      slot: p.slot,
      occupiedStaffId: p.staffId,
      occupiedFrom: range.from,
      occupiedTo: range.to,
      processing: range.processing,
      resourceIds: range.resourceIds,
    });
  } else if (before.status === 'rescheduleProposed') {
    // Leaving a proposal by any other way (decline, cancel): the held range goes back to the
    // appointment itself; the status no longer occupies, so it blocks nothing.
    change.proposed = null;
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
  return {
    change,
    after,
    events: [
      {
        ...eventOf(after, event, { id: newId('trn'), from: before.status, occurredAt: req.now }, ctx.salonSlug),
        reason: req.reason ?? null,
        actor: req.actor ?? null,
      },
    ],
    // A result that occupies time goes through the staff calendar locks (old and new staff: a swap
    // of two bookings between two staff members must not deadlock); a group seat is outside the
    // constraint.
    lockStaff:
      OCCUPYING.has(change.status) && before.sessionId === null ? [before.staffId, before.proposed?.staffId, change.occupiedStaffId] : [],
    // A group seat is given back the moment its booking stops holding it.
    releaseSeatOf: before.sessionId !== null && (change.status === 'cancelled' || change.status === 'declined') ? before.sessionId : null,
  };
}
