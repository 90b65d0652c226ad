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
  await q.query(
    `INSERT INTO booking_events (booking_id, sequence, business_id, event, transition_id, from_status, to_status,
        occurred_at, delivery_id, payload)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [e.bookingId, e.sequence, e.businessId, e.event, e.transitionId, e.from, e.to, e.occurredAt, e.deliveryId, e.payloadJson],
  );
  const r = await q.query(
    `INSERT INTO webhook_deliveries (delivery_id, business_id, booking_id, sequence, event, status, next_attempt_at, created_at)
     SELECT $1, $2, $3, $4, $5, 'pending', $6, $6
      WHERE EXISTS (SELECT 1 FROM webhook_configs WHERE business_id = $2)`,
    [e.deliveryId, e.businessId, e.bookingId, e.sequence, e.event, e.occurredAt],
  );
  return { queued: r.rowCount > 0 };
}

export async function listEvents(q: Queryable, bookingId: string): Promise<string[]> {
  const r = await q.query<{ payload: string }>(
    'SELECT payload FROM booking_events WHERE booking_id = $1 ORDER BY sequence',
    [bookingId],
  );
  return r.rows.map((row) => row.payload);
}
