import type { BusinessDetails } from '../domain/bookings/business-view.ts';
import type { Queryable } from './db.ts';

/**
 * The one read of guest phone and email (BOOKING_COLUMNS leaves them out), with the reason kept on
 * the booking's latest event: only the operator's booking reads call it. Keyed by booking id; a
 * missing id has no entry.
 */
export async function findGuestContacts(q: Queryable, bookingIds: readonly string[]): Promise<Map<string, BusinessDetails>> {
  const out = new Map<string, BusinessDetails>();
  if (bookingIds.length === 0) return out;
  const r = await q.query<{ id: string; guest_phone: string; guest_email: string | null; reason: string | null }>(
    `SELECT b.id, b.guest_phone, b.guest_email,
            (SELECT e.reason FROM booking_events e WHERE e.booking_id = b.id AND e.sequence = b.state_version) AS reason
       FROM bookings b WHERE b.id = ANY($1::text[])`,
    [[...bookingIds]],
  );
  for (const row of r.rows) out.set(row.id, { phone: row.guest_phone, email: row.guest_email, reason: row.reason });
  return out;
}
