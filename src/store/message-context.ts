import type { SourceKind } from '../domain/bookings/source.ts';
import type { Queryable } from './db.ts';

/** What the message policy needs of a booking beyond its event: never logged, never in a read. */
export interface BookingContact {
  phone: string;
  email: string | null;
  source: SourceKind;
  /** the booking page's consent.locale (the language the guest booked in); null for a manual booking */
  locale: string | null;
}

export async function findBookingContact(q: Queryable, bookingId: string): Promise<BookingContact | undefined> {
  const r = await q.query<{ guest_phone: string; guest_email: string | null; source: SourceKind; locale: string | null }>(
    `SELECT guest_phone, guest_email, source, consent->>'locale' AS locale FROM bookings WHERE id = $1`,
    [bookingId],
  );
  const row = r.rows[0];
  return row && { phone: row.guest_phone, email: row.guest_email, source: row.source, locale: row.locale };
}

/** The owners and managers of a business that have an address (business mail goes to them). */
export async function listBusinessRecipients(q: Queryable, businessId: string): Promise<Array<{ memberId: string; email: string }>> {
  const r = await q.query<{ member_id: string; email: string }>(
    `SELECT u.id AS member_id, u.email FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.business_id = $1 AND m.role IN ('owner', 'manager') AND u.email IS NOT NULL
      ORDER BY u.id`,
    [businessId],
  );
  return r.rows.map((row) => ({ memberId: row.member_id, email: row.email }));
}

/** The event name and time of a booking's event `sequence`, if written. */
export async function findEventHead(
  q: Queryable,
  bookingId: string,
  sequence: number,
): Promise<{ event: string; occurredAt: Date } | undefined> {
  const r = await q.query<{ event: string; occurred_at: Date }>(
    'SELECT event, occurred_at FROM booking_events WHERE booking_id = $1 AND sequence = $2',
    [bookingId, sequence],
  );
  const row = r.rows[0];
  return row && { event: row.event, occurredAt: new Date(row.occurred_at) };
}

/** The database's clock: the one the job worker compares due times with. */
export async function databaseNow(q: Queryable): Promise<Date> {
  const r = await q.query<{ now: Date }>('SELECT now() AS now');
  return new Date(r.rows[0]!.now);
}
