import type { Queryable } from './db.ts';

export interface NewEvent {
  bookingId: string;
  businessId: string;
  sequence: number;
  event: string;
  transitionId: string | null;
  from: string | null;
  to: string;
  occurredAt: Date;
  deliveryId: string;
  payloadJson: string;
}

/**
 * Appends the immutable event and, in the same transaction, the delivery record the webhook worker
 * picks up — only when the business has a webhook configured at that moment. The primary key
 * (booking_id, sequence) makes a lost update impossible: two writers cannot both add sequence N.
 */
export async function appendEvent(q: Queryable, e: NewEvent): Promise<{ queued: boolean }> {
  // One statement (one round trip) for both rows: a create writes two events, and every round trip
  // counts at booking-create load. The outbox row's foreign key to the event is checked at the end
  // of the statement, when the event row exists. A queued row also notifies the webhook worker:
  // PostgreSQL (and PGlite) deliver the notification at commit, so a woken worker sees the row, and
  // a rolled-back booking wakes nobody. The row is due at the database's now(), the clock the
  // worker's claim compares with (the app clock may differ, e.g. in tests).
  const r = await q.query<{ queued: boolean }>(
    `WITH event AS (
       INSERT INTO booking_events (booking_id, sequence, business_id, event, transition_id, from_status, to_status,
           occurred_at, delivery_id, payload)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       RETURNING delivery_id, business_id, booking_id, sequence, event, occurred_at
     ), outbox AS (
       INSERT INTO webhook_deliveries (delivery_id, business_id, booking_id, sequence, event, status, next_attempt_at, created_at)
       SELECT delivery_id, business_id, booking_id, sequence, event, 'pending', now(), occurred_at FROM event
        WHERE EXISTS (SELECT 1 FROM webhook_configs WHERE business_id = $3)
       RETURNING 1
     ), wake AS (
       SELECT pg_notify('webhook_outbox', '') FROM outbox
     )
     SELECT (SELECT count(*) FROM wake) > 0 AS queued FROM event`,
    [e.bookingId, e.sequence, e.businessId, e.event, e.transitionId, e.from, e.to, e.occurredAt, e.deliveryId, e.payloadJson],
  );
  return { queued: r.rows[0]?.queued === true };
}

export async function listEvents(q: Queryable, bookingId: string): Promise<string[]> {
  const r = await q.query<{ payload: string }>(
    'SELECT payload FROM booking_events WHERE booking_id = $1 ORDER BY sequence',
    [bookingId],
  );
  return r.rows.map((row) => row.payload);
}
