import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { BookingSnapshot } from '../../domain/messages/snapshot.ts';

/**
 * A booking message's calendar file: the same UID as the booking page's .ics (src/ui/calendar.ts:
 * `<bookingId>@<public host>`), so each file updates the one event in the guest's calendar, and
 * SEQUENCE = the state version the message describes, so a calendar keeps the newest. CANCEL takes
 * it out (a cancellation, a declined request); REQUEST adds or moves it. A proposed time is not yet
 * the booking's: its file still shows the time that holds, as tentative.
 */
export function messageCalendar(
  bookingId: string,
  b: BookingSnapshot,
  o: { method: 'REQUEST' | 'CANCEL'; businessName: string; uidDomain: string; organizerEmail: string; manageUrl: string | null; now: Date },
): string {
  const cal = ical({ name: b.serviceName, prodId: { company: 'booking-api', product: 'guest-messages', language: 'EN' } });
  cal.method(o.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST);
  cal.createEvent({
    id: `${bookingId}@${o.uidDomain}`,
    sequence: b.stateVersion,
    stamp: o.now,
    start: new Date(b.time.startAt),
    end: new Date(b.time.endAt),
    summary: `${b.serviceName} – ${b.locationName}`,
    description: [`${b.publicReference}${b.staffName ? ` · ${b.staffName}` : ''}`, o.manageUrl].filter(Boolean).join('\n'),
    location: [b.locationName, b.address].filter(Boolean).join(', '),
    ...(o.manageUrl ? { url: o.manageUrl } : {}),
    status:
      o.method === 'CANCEL' ? ICalEventStatus.CANCELLED : b.status === 'confirmed' ? ICalEventStatus.CONFIRMED : ICalEventStatus.TENTATIVE,
    organizer: { name: o.businessName, email: o.organizerEmail },
  });
  return cal.toString();
}
