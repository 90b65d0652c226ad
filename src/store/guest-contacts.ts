import type { BusinessDetails } from '../domain/bookings/business-view.ts';
import type { DepositStatus } from '../domain/deposits/status.ts';
import type { SourceKind } from '../domain/bookings/source.ts';
import type { BookedPrice } from '../domain/bookings/price.ts';
import type { Queryable } from './db.ts';

/**
 * The one read of guest phone and email (BOOKING_COLUMNS leaves them out), with the reason kept on
 * the booking's latest event, the deposit as the business recorded it, who made the booking and the
 * price it was made at: only
 * the operator's booking reads call it. Keyed by booking id; a missing id has no entry.
 */
export async function findGuestContacts(q: Queryable, bookingIds: readonly string[]): Promise<Map<string, BusinessDetails>> {
  const out = new Map<string, BusinessDetails>();
  if (bookingIds.length === 0) return out;
  const r = await q.query<{
    id: string;
    guest_phone: string;
    guest_email: string | null;
    reason: string | null;
    deposit_status: DepositStatus | null;
    deposit_amount_minor: string | number | null;
    deposit_currency: string | null;
    deposit_due_at: Date | null;
    deposit_recorded_at: Date | null;
    source: SourceKind;
    source_member_id: string | null;
    source_member_name: string | null;
    client_id: string;
    price_type: BookedPrice['type'] | null;
    price_minor: number | null;
    price_currency: string | null;
  }>(
    `SELECT b.id, b.guest_phone, b.guest_email, b.deposit_status, b.deposit_amount_minor, b.deposit_currency, b.deposit_due_at,
            b.deposit_recorded_at, b.source, b.source_member_id, u.name AS source_member_name, b.price_type, b.price_minor,
            b.price_currency, b.client_id,
            (SELECT e.reason FROM booking_events e WHERE e.booking_id = b.id AND e.sequence = b.state_version) AS reason
       FROM bookings b LEFT JOIN users u ON u.id = b.source_member_id
      WHERE b.id = ANY($1::text[])`,
    [[...bookingIds]],
  );
  for (const row of r.rows) {
    out.set(row.id, {
      phone: row.guest_phone,
      email: row.guest_email,
      reason: row.reason,
      source: row.source,
      clientId: row.client_id,
      createdBy: row.source_member_id === null ? null : { memberId: row.source_member_id, name: row.source_member_name },
      price: row.price_type === null ? null : { type: row.price_type, amountMinor: row.price_minor, currency: row.price_currency! },
      deposit:
        row.deposit_status === null
          ? null
          : {
              status: row.deposit_status,
              amountMinor: row.deposit_amount_minor === null ? null : Number(row.deposit_amount_minor),
              currency: row.deposit_currency!,
              dueAt: row.deposit_due_at!,
              recordedAt: row.deposit_recorded_at,
            },
    });
  }
  return out;
}
