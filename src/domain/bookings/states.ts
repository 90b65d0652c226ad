import { AppError } from '../errors.ts';

export const BOOKING_STATUSES = ['requested', 'confirmed', 'declined', 'rescheduleProposed', 'cancelled', 'completed', 'noShow'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const EVENT_NAMES = [
  'booking.requested',
  'booking.confirmed',
  'booking.declined',
  'booking.cancelled',
  'booking.reschedule_proposed',
  'booking.reschedule_confirmed',
  'booking.completed',
  'booking.no_show',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** These hold their time: no two of them may overlap for one staff member. */
export const OCCUPYING: ReadonlySet<BookingStatus> = new Set(['requested', 'confirmed', 'rescheduleProposed']);

/** Every change a booking can make after creation, public or business-side. */
export type Action = 'autoConfirm' | 'accept' | 'decline' | 'propose' | 'acceptProposal' | 'reschedule' | 'complete' | 'noShow' | 'cancel';

interface Transition {
  from: readonly BookingStatus[];
  to: BookingStatus;
  event: EventName;
  /** the appointment's start must have passed (complete, no-show) */
  needsStartPassed?: boolean;
}

export const TRANSITIONS: Record<Action, Transition> = {
  autoConfirm: { from: ['requested'], to: 'confirmed', event: 'booking.confirmed' },
  accept: { from: ['requested'], to: 'confirmed', event: 'booking.confirmed' },
  decline: { from: ['requested', 'rescheduleProposed'], to: 'declined', event: 'booking.declined' },
  propose: { from: ['requested', 'confirmed'], to: 'rescheduleProposed', event: 'booking.reschedule_proposed' },
  acceptProposal: { from: ['rescheduleProposed'], to: 'confirmed', event: 'booking.reschedule_confirmed' },
  reschedule: { from: ['confirmed'], to: 'confirmed', event: 'booking.reschedule_confirmed' },
  complete: { from: ['confirmed'], to: 'completed', event: 'booking.completed', needsStartPassed: true },
  noShow: { from: ['confirmed'], to: 'noShow', event: 'booking.no_show', needsStartPassed: true },
  cancel: { from: ['requested', 'confirmed', 'rescheduleProposed'], to: 'cancelled', event: 'booking.cancelled' },
};

/** The one gate every state change passes; throws 409 booking.invalid_transition otherwise. */
export function planTransition(action: Action, current: BookingStatus, startAt: Date, now: Date): { to: BookingStatus; event: EventName } {
  const t = TRANSITIONS[action];
  if (!t.from.includes(current)) {
    throw new AppError('booking.invalid_transition', `A ${current} booking cannot be ${describe(action)}.`, { status: current, action });
  }
  if (t.needsStartPassed && startAt.getTime() > now.getTime()) {
    throw new AppError('booking.invalid_transition', 'The appointment has not started yet.', {
      status: current,
      action,
    });
  }
  return { to: t.to, event: t.event };
}

function describe(action: Action): string {
  switch (action) {
    case 'autoConfirm':
    case 'accept':
      return 'accepted';
    case 'decline':
      return 'declined';
    case 'propose':
      return 'given a new proposed time';
    case 'acceptProposal':
      return 'confirmed at a proposed time';
    case 'reschedule':
      return 'moved';
    case 'complete':
      return 'completed';
    case 'noShow':
      return 'marked as a no-show';
    case 'cancel':
      return 'cancelled';
  }
}
