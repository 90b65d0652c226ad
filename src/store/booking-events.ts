import type { BookingEventRow } from '../domain/bookings/event-row.ts';
import type { Queryable } from './db.ts';
import { JOBS_CHANNEL } from './jobs.ts';

/** The job kind each booking event plans in its own statement (src/jobs/handlers/booking-followup.ts). */
export const BOOKING_FOLLOWUP_KIND = 'booking.followup';

/** The domain builds the row (domain/bookings/event-row.ts); the store only writes it. */
export type NewEvent = BookingEventRow;

/**
 * The CTEs that append events given as parallel arrays (twelve parameters from `$first`, see
 * eventParams) and, for each, the delivery record the webhook worker picks up — only when the
 * business has a webhook configured at that moment — and its follow-up job (guest messages, the
 * waitlist: src/jobs/handlers/booking-followup.ts), so what an event causes is planned with it. `guard` names an earlier CTE whose rows must
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
           occurred_at, delivery_id, payload, reason, actor)
       SELECT * FROM unnest(${p(0)}::text[], ${p(1)}::int[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[],
                            ${p(5)}::text[], ${p(6)}::text[], ${p(7)}::timestamptz[], ${p(8)}::text[], ${p(9)}::text[],
                            ${p(10)}::text[], ${p(11)}::text[])
       ${guard ? `WHERE EXISTS (SELECT 1 FROM ${guard})` : ''}
       RETURNING delivery_id, business_id, booking_id, sequence, event, occurred_at
     ), outbox AS (
       INSERT INTO webhook_deliveries (delivery_id, business_id, booking_id, sequence, event, status, next_attempt_at, created_at)
       SELECT delivery_id, business_id, booking_id, sequence, event, 'pending', now(), occurred_at FROM event
        WHERE EXISTS (SELECT 1 FROM webhook_configs c WHERE c.business_id = event.business_id)
       RETURNING 1
     ), followup AS (
       INSERT INTO jobs (kind, business_id, payload)
       SELECT '${BOOKING_FOLLOWUP_KIND}', business_id, jsonb_build_object('bookingId', booking_id, 'sequence', sequence) FROM event
       RETURNING 1
     ), wake AS (
       (SELECT pg_notify('webhook_outbox', '') FROM outbox LIMIT 1)
       UNION ALL (SELECT pg_notify('${JOBS_CHANNEL}', '') FROM followup LIMIT 1)
     )`;
}

/** The twelve parameters of appendEventsCtes, in order; the delivery ids are the ninth. */
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
    events.map((e) => e.actor ?? null),
  ];
}

/** Appends events of existing bookings (and their outbox rows), in one statement. */
export async function appendEvents(q: Queryable, events: readonly NewEvent[]): Promise<void> {
  await q.query(`WITH ${appendEventsCtes(1)} SELECT (SELECT count(*) FROM wake) AS woken`, eventParams(events));
}

/** One stored event as its follow-up reads it. */
export interface StoredEvent {
  bookingId: string;
  businessId: string;
  sequence: number;
  event: string;
  from: string | null;
  to: string;
  occurredAt: Date;
  actor: 'guest' | 'member' | 'operator' | 'api' | null;
  /** the webhook payload: the booking as it was right after this event */
  payloadJson: string;
}

export async function findEvent(q: Queryable, bookingId: string, sequence: number): Promise<StoredEvent | undefined> {
  const r = await q.query<{
    booking_id: string;
    business_id: string;
    sequence: number;
    event: string;
    from_status: string | null;
    to_status: string;
    occurred_at: Date;
    actor: StoredEvent['actor'];
    payload: string;
  }>(
    `SELECT booking_id, business_id, sequence, event, from_status, to_status, occurred_at, actor, payload
       FROM booking_events WHERE booking_id = $1 AND sequence = $2`,
    [bookingId, sequence],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    bookingId: row.booking_id,
    businessId: row.business_id,
    sequence: row.sequence,
    event: row.event,
    from: row.from_status,
    to: row.to_status,
    occurredAt: new Date(row.occurred_at),
    actor: row.actor,
    payloadJson: row.payload,
  };
}

export async function listEvents(q: Queryable, bookingId: string): Promise<string[]> {
  const r = await q.query<{ payload: string }>('SELECT payload FROM booking_events WHERE booking_id = $1 ORDER BY sequence', [bookingId]);
  return r.rows.map((row) => row.payload);
}

/** The booking's events with who made each (operator reads). */
export async function listEventsWithActor(
  q: Queryable,
  bookingId: string,
): Promise<Array<{ payload: string; actor: StoredEvent['actor'] }>> {
  const r = await q.query<{ payload: string; actor: StoredEvent['actor'] }>(
    'SELECT payload, actor FROM booking_events WHERE booking_id = $1 ORDER BY sequence',
    [bookingId],
  );
  return r.rows.map((row) => ({ payload: row.payload, actor: row.actor }));
}
