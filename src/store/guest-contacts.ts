import type { GuestContact } from '../domain/bookings/business-view.ts';
import type { Queryable } from './db.ts';

/**
 * The one read of guest phone and email (BOOKING_COLUMNS leaves them out): only the operator's
 * booking reads call it. Keyed by booking id; a missing id has no entry.
 */
export async function findGuestContacts(q: Queryable, bookingIds: readonly string[]): Promise<Map<string, GuestContact>> {
  const out = new Map<string, GuestContact>();
  if (bookingIds.length === 0) return out;
  const r = await q.query<{ id: string; guest_phone: string; guest_email: string | null }>(
    'SELECT id, guest_phone, guest_email FROM bookings WHERE id = ANY($1::text[])',
    [[...bookingIds]],
  );
  for (const row of r.rows) out.set(row.id, { phone: row.guest_phone, email: row.guest_email });
  return out;
}
