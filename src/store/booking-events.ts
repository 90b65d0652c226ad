import type { BookingEventRow } from '../domain/bookings/event-row.ts';
import type { Queryable } from './db.ts';

/** The domain builds the row (domain/bookings/event-row.ts); the store only writes it. */
export type NewEvent = BookingEventRow;

/**
 * The CTEs that append events given as parallel arrays (eleven parameters from `$first`, see
 * eventParams) and, for each, the delivery record the webhook worker picks up — only when the
 * business has a webhook configured at that moment. `guard` names an earlier CTE whose rows must
 * exist for the events to be written (the booking row of the same statement), or is omitted.
 *
 * One statement for the booking row, its events and their outbox rows: every round trip counts at
 * booking-create load. The foreign keys (event → booking, outbox → event) are checked at the end of
 * the statement, when the rows exist. A queued row also notifies the webhook worker: PostgreSQL
 * (and PGlite) deliver the notification at commit, so a woken worker sees the row, and a
 * rolled-back booking wakes nobody. The row is due at the database's now(), the clock the worker's
 * claim compares with (the app clock may differ, e.g. in tests). The primary key (booking_id,
 * sequence) makes a lost update impossible: two writers cannot both add sequence N.
 */
export function appendEventsCtes(first: number, guard?: string): string {
  const p = (i: number) => `$${first + i}`;
  return `event AS (
       INSERT INTO booking_events (booking_id, sequence, business_id, event, transition_id, from_status, to_status,
           occurred_at, delivery_id, payload, reason)
       SELECT * FROM unnest(${p(0)}::text[], ${p(1)}::int[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[],
                            ${p(5)}::text[], ${p(6)}::text[], ${p(7)}::timestamptz[], ${p(8)}::text[], ${p(9)}::text[],
                            ${p(10)}::text[])
       ${guard ? `WHERE EXISTS (SELECT 1 FROM ${guard})` : ''}
       RETURNING delivery_id, business_id, booking_id, sequence, event, occurred_at
     ), outbox AS (
       INSERT INTO webhook_deliveries (delivery_id, business_id, booking_id, sequence, event, status, next_attempt_at, created_at)
       SELECT delivery_id, business_id, booking_id, sequence, event, 'pending', now(), occurred_at FROM event
        WHERE EXISTS (SELECT 1 FROM webhook_configs c WHERE c.business_id = event.business_id)
       RETURNING 1
     ), wake AS (
       SELECT pg_notify('webhook_outbox', '') FROM outbox LIMIT 1
     )`;
}

/** The eleven parameters of appendEventsCtes, in order; the delivery ids are the ninth. */
export function eventParams(events: readonly NewEvent[]): unknown[] {
  return [
    events.map((e) => e.bookingId),
    events.map((e) => e.sequence),
    events.map((e) => e.businessId),
    events.map((e) => e.event),
    events.map((e) => e.transitionId),
    events.map((e) => e.from),
    events.map((e) => e.to),
    events.map((e) => e.occurredAt),
    events.map((e) => e.deliveryId),
    events.map((e) => e.payloadJson),
    events.map((e) => e.reason ?? null),
  ];
}

/** Appends events of existing bookings (and their outbox rows), in one statement. */
export async function appendEvents(q: Queryable, events: readonly NewEvent[]): Promise<void> {
  await q.query(`WITH ${appendEventsCtes(1)} SELECT (SELECT count(*) FROM wake) AS woken`, eventParams(events));
}

export async function listEvents(q: Queryable, bookingId: string): Promise<string[]> {
  const r = await q.query<{ payload: string }>('SELECT payload FROM booking_events WHERE booking_id = $1 ORDER BY sequence', [bookingId]);
  return r.rows.map((row) => row.payload);
}
