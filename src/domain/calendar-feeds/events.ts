import type { BookingRecord } from '../bookings/record.ts';
import type { BookingStatus } from '../bookings/states.ts';
import { withoutContacts } from './contact-text.ts';
import type { FeedScope, FeedTimeOff } from './subject.ts';

/**
 * The bookings a feed shows: those that hold time (requested, confirmed, rescheduleProposed) and,
 * for the past days the window reaches, those that took place (completed, noShow), so a stylist can
 * look back at who came. Cancelled and declined ones never held time there and are left out.
 */
export const FEED_STATUSES: readonly BookingStatus[] = ['requested', 'confirmed', 'rescheduleProposed', 'completed', 'noShow'];

/** One VEVENT, decided without I/O; `uid` is made globally unique by the renderer. */
export interface FeedEvent {
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  description: string;
  /** a request or an open proposal is not settled yet: calendars show TENTATIVE paler */
  status: 'CONFIRMED' | 'TENTATIVE';
  /** the booking's stateVersion: a calendar that compares SEQUENCE takes the newer one */
  sequence: number;
  /** the last change, as DTSTAMP and LAST-MODIFIED: the same data renders the same bytes */
  stamp: Date;
}

const STATUS_TEXT: Record<BookingStatus, string> = {
  requested: 'requested, waiting for the salon to accept or decline',
  confirmed: 'confirmed',
  rescheduleProposed: 'new time proposed, waiting for the guest’s answer',
  completed: 'completed',
  noShow: 'no-show',
  cancelled: 'cancelled',
  declined: 'declined',
};

/** Where a booking holds time: an open proposal holds the proposed time (decisions.md), not the old one. */
function heldTime(b: BookingRecord): { staffId: string | null; start: Date; end: Date } {
  if (b.status === 'rescheduleProposed' && b.proposed)
    return { staffId: b.proposed.staffId, start: b.proposed.startAt, end: b.proposed.endAt };
  return { staffId: b.staffId, start: b.startAt, end: b.endAt };
}

function bookingEvent(b: BookingRecord, held: ReturnType<typeof heldTime>): FeedEvent {
  const guest = withoutContacts(b.guestName) || 'Guest';
  const lines = [`Status: ${STATUS_TEXT[b.status]}`];
  if (b.status === 'rescheduleProposed') lines.push(`Booked time until the guest answers: ${b.slot.date} ${b.slot.startTime}`);
  // A proposal may move the booking to another staff member, whose name the record does not carry.
  if (b.staffName && held.staffId === b.staffId) lines.push(`Staff: ${b.staffName}`);
  if (b.sessionId) lines.push('Group session');
  lines.push(`Reference: ${b.publicReference}`);
  return {
    uid: b.id,
    start: held.start,
    end: held.end,
    summary: `${guest} – ${b.serviceName}`,
    description: lines.join('\n'),
    status: b.status === 'requested' || b.status === 'rescheduleProposed' ? 'TENTATIVE' : 'CONFIRMED',
    sequence: b.stateVersion,
    stamp: b.updatedAt,
  };
}

function timeOffEvent(t: FeedTimeOff, scope: FeedScope): FeedEvent {
  return {
    uid: t.id,
    start: t.startAt,
    end: t.endAt,
    summary: scope.kind === 'staff' ? 'Time off' : `Time off – ${t.staffName}`,
    description: 'Busy: not bookable.',
    status: 'CONFIRMED',
    sequence: 0,
    stamp: t.createdAt,
  };
}

/**
 * A feed's events, by start then uid: the bookings in FEED_STATUSES and the time off that overlap
 * the window, of the feed's staff member (where the booking holds time) or of its location. The
 * text carries the guest's name and the service, never a phone number, an email or the note.
 */
export function feedEvents(input: {
  scope: FeedScope;
  window: { from: Date; to: Date };
  bookings: readonly BookingRecord[];
  timeOff: readonly FeedTimeOff[];
}): FeedEvent[] {
  const { scope, window } = input;
  const overlaps = (start: Date, end: Date) => start < window.to && end > window.from;
  const events: FeedEvent[] = [];
  for (const b of input.bookings) {
    if (!FEED_STATUSES.includes(b.status)) continue;
    if (scope.kind === 'location' && b.locationId !== scope.locationId) continue;
    const held = heldTime(b);
    if (scope.kind === 'staff' && held.staffId !== scope.staffId) continue;
    if (overlaps(held.start, held.end)) events.push(bookingEvent(b, held));
  }
  for (const t of input.timeOff) {
    if (scope.kind === 'staff' && t.staffId !== scope.staffId) continue;
    if (overlaps(t.startAt, t.endAt)) events.push(timeOffEvent(t, scope));
  }
  return events.sort((a, b) => a.start.getTime() - b.start.getTime() || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
}
