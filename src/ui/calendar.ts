import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { BookingRecord } from '../domain/bookings/record.ts';

/**
 * A booking as an iCalendar REQUEST: one UID per booking (so a later file about the same booking
 * updates the guest's event instead of adding one) and SEQUENCE = the booking's stateVersion (so a
 * calendar takes the newer file). The next issue's mails attach the same file.
 */
export function bookingCalendar(
  booking: BookingRecord | readonly BookingRecord[],
  o: { businessName: string; uidDomain: string; organizerEmail: string; manageUrl: string; now: Date },
): string {
  // A visit's file has one event per part, each under its booking's own UID (as its messages' files).
  const all = Array.isArray(booking) ? (booking as readonly BookingRecord[]) : [booking as BookingRecord];
  const cal = ical({
    name: all.map((b) => b.serviceName).join(' + '),
    prodId: { company: 'booking-api', product: 'booking-page', language: 'EN' },
  });
  cal.method(ICalCalendarMethod.REQUEST);
  for (const b of all) addEvent(cal, b, o);
  return cal.toString();
}

function addEvent(
  cal: ReturnType<typeof ical>,
  b: BookingRecord,
  o: { businessName: string; uidDomain: string; organizerEmail: string; manageUrl: string; now: Date },
): void {
  const place = b.locationSnapshot;
  cal.createEvent({
    id: `${b.id}@${o.uidDomain}`,
    sequence: b.stateVersion,
    stamp: o.now,
    start: b.startAt,
    end: b.endAt,
    summary: `${b.serviceName} – ${place.publicLocationName}`,
    description: `${b.publicReference}${b.staffName ? ` · ${b.staffName}` : ''}\n${o.manageUrl}`,
    location: [place.publicLocationName, place.address.street, `${place.address.zip} ${place.address.city}`].filter(Boolean).join(', '),
    url: o.manageUrl,
    status:
      b.status === 'cancelled' || b.status === 'declined'
        ? ICalEventStatus.CANCELLED
        : b.status === 'confirmed'
          ? ICalEventStatus.CONFIRMED
          : ICalEventStatus.TENTATIVE,
    organizer: { name: o.businessName, email: o.organizerEmail },
  });
}
