import type { BookingRecord } from '../domain/bookings/record.ts';
import { BOOKING_COLUMNS, toRecord } from './bookings.ts';
import type { Queryable } from './db.ts';

/** The row that ties a visit's parts together (migration 031); written before its first part. */
export async function insertVisit(q: Queryable, v: { id: string; businessId: string; locationId: string }): Promise<void> {
  await q.query(`INSERT INTO visits (id, business_id, location_id) VALUES ($1, $2, $3)`, [v.id, v.businessId, v.locationId]);
}

/** Whether the visit exists (in the business, when one is given). */
export async function visitExists(q: Queryable, businessId: string | null, visitId: string): Promise<boolean> {
  const r = await q.query(`SELECT 1 FROM visits WHERE id = $1 AND ($2::text IS NULL OR business_id = $2)`, [visitId, businessId]);
  return r.rows.length > 0;
}

/** The visit's parts in the order they are performed. */
export async function visitBookings(q: Queryable, visitId: string): Promise<BookingRecord[]> {
  const r = await q.query<Parameters<typeof toRecord>[0]>(
    `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE visit_id = $1 ORDER BY start_at, id`,
    [visitId],
  );
  return r.rows.map(toRecord);
}
