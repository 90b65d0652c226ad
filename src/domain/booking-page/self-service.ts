import { AppError } from '../errors.ts';
import type { GuestNotice } from '../guest-settings/settings.ts';
import type { BookingStatus } from '../bookings/states.ts';

/**
 * What a guest may do on the manage page (guest-side.md "Self-service"), decided without I/O. The
 * page offers a button only when its rule allows it, and the use case checks the same rule again
 * on the locked row, so a page left open past the window cannot act after it. The business's own
 * actions never pass through here: its windows are the guest's only.
 */
export type GuestAction = 'cancel' | 'reschedule' | 'acceptProposal' | 'decline';

export interface SelfServiceFacts {
  status: BookingStatus;
  startAt: Date;
  /** a group-session seat: it has no time of its own to move */
  sessionId: string | null;
  /** the proposal's start, while the salon proposes a new time */
  proposedStartAt: Date | null;
  /** the service confirms requests automatically (`requestAcceptancePolicy` automatic) */
  automaticService: boolean;
  guestCancel: GuestNotice;
  guestReschedule: GuestNotice;
  now: Date;
}

/** Why an action is not offered: the state does not take it, the business does not allow it, or its window has closed. */
export type Refusal = 'state' | 'notAllowed' | 'windowClosed';

const TERMINAL: ReadonlySet<BookingStatus> = new Set(['declined', 'cancelled', 'completed', 'noShow']);

/** The last moment the guest may act under `notice`: the start minus the notice. */
export function windowEnd(startAt: Date, notice: GuestNotice): Date {
  return new Date(startAt.getTime() - notice.noticeMinutes * 60_000);
}

function underNotice(f: SelfServiceFacts, notice: GuestNotice): Refusal | undefined {
  if (!notice.allowed) return 'notAllowed';
  // "at least noticeMinutes away": the very moment the window ends still counts.
  return f.now.getTime() <= windowEnd(f.startAt, notice).getTime() ? undefined : 'windowClosed';
}

/** Why the guest may not take `action` now, or undefined when they may. */
export function guestRefusal(action: GuestAction, f: SelfServiceFacts): Refusal | undefined {
  switch (action) {
    case 'cancel':
      return TERMINAL.has(f.status) ? 'state' : underNotice(f, f.guestCancel);
    case 'reschedule':
      if (f.status !== 'confirmed' || f.sessionId !== null || !f.automaticService) return 'state';
      return underNotice(f, f.guestReschedule);
    case 'acceptProposal':
      // The salon asked: an answer needs no notice, only a proposed time still ahead.
      if (f.status !== 'rescheduleProposed' || f.proposedStartAt === null) return 'state';
      return f.proposedStartAt.getTime() > f.now.getTime() ? undefined : 'windowClosed';
    case 'decline':
      return f.status === 'rescheduleProposed' ? undefined : 'state';
  }
}

/** The manage page's buttons, and what it says in place of `Cancel booking` when that is not offered. */
export interface SelfServiceOffer {
  cancel: boolean;
  reschedule: boolean;
  acceptProposal: boolean;
  declineProposal: boolean;
  /**
   * Shown instead of `Cancel booking` on a booking still ahead: `until` the window the guest
   * missed ended, or `notAllowed` when the business takes no cancellations online.
   */
  cancelClosed: { kind: 'windowClosed'; until: Date } | { kind: 'notAllowed' } | null;
}

export function selfServiceOffer(f: SelfServiceFacts): SelfServiceOffer {
  const cancel = guestRefusal('cancel', f);
  return {
    cancel: cancel === undefined,
    reschedule: guestRefusal('reschedule', f) === undefined,
    acceptProposal: guestRefusal('acceptProposal', f) === undefined,
    declineProposal: guestRefusal('decline', f) === undefined,
    cancelClosed:
      cancel === 'windowClosed'
        ? { kind: 'windowClosed', until: windowEnd(f.startAt, f.guestCancel) }
        : cancel === 'notAllowed'
          ? { kind: 'notAllowed' }
          : null,
  };
}

/** The use case's check on the locked row: a refusal is 409 booking.invalid_transition, its reason in the details. */
export function checkGuestAction(action: GuestAction, f: SelfServiceFacts): void {
  const refusal = guestRefusal(action, f);
  if (refusal === undefined) return;
  const text =
    refusal === 'windowClosed'
      ? 'The time to do this online has passed.'
      : refusal === 'notAllowed'
        ? 'The business does not take this online.'
        : `A ${f.status} booking cannot take this.`;
  throw new AppError('booking.invalid_transition', text, { status: f.status, action, refusal });
}
