import type { BusinessBookingView } from '../../domain/bookings/business-view.ts';
import { toBusinessBookingView } from '../../domain/bookings/business-view.ts';
import type { BookingRecord } from '../../domain/bookings/record.ts';
import type { Queryable } from '../../store/db.ts';
import { findGuestContacts } from '../../store/guest-contacts.ts';

/** Records as the business sees them: one extra query for the guests' phone and email. */
export async function businessViews(q: Queryable, records: readonly BookingRecord[]): Promise<BusinessBookingView[]> {
  const contacts = await findGuestContacts(
    q,
    records.map((b) => b.id),
  );
  // A booking row always has a phone and a source (NOT NULL); a row gone between the two reads (its
  // business deleted) shows no phone and the least claim about its origin.
  const gone = {
    phone: '',
    email: null,
    reason: null,
    deposit: null,
    source: 'manual',
    createdBy: null,
    price: null,
    clientId: '',
  } as const;
  return records.map((b) => toBusinessBookingView(b, contacts.get(b.id) ?? gone));
}

export async function businessView(q: Queryable, record: BookingRecord): Promise<BusinessBookingView> {
  return (await businessViews(q, [record]))[0]!;
}
