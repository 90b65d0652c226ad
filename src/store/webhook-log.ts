import type { AttemptRow, DeliveryRow } from '../domain/webhooks/delivery-view.ts';
import type { Queryable } from './db.ts';

/** Read-only queries of the delivery log (the worker writes it). */

export interface DeliveryPageQuery {
  businessId: string;
  from: Date;
  /** exclusive; null: no upper bound */
  to: Date | null;
  event?: string | undefined;
  outcome?: string | undefined;
  /** keyset position: records strictly older than this (createdAt to the microsecond, then id) */
  before?: { at: string; id: string } | undefined;
  limit: number;
}

interface Row {
  delivery_id: string;
  booking_id: string;
  sequence: number;
  event: string;
  status: DeliveryRow['status'];
  attempt_count: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  outcome: DeliveryRow['outcome'];
  status_code: number | null;
  created_at: Date;
  position_at: string;
}

/** Newest first; `positionAt` is createdAt with microseconds, for the next page's cursor. */
export async function listDeliveries(q: Queryable, p: DeliveryPageQuery): Promise<Array<DeliveryRow & { positionAt: string }>> {
  const r = await q.query<Row>(
    `SELECT delivery_id, booking_id, sequence, event, status, attempt_count, next_attempt_at, last_attempt_at,
            outcome, status_code, created_at,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_at
       FROM webhook_deliveries
      WHERE business_id = $1 AND created_at >= $2 AND ($3::timestamptz IS NULL OR created_at < $3)
        AND ($4::text IS NULL OR event = $4)
        AND ($5::text IS NULL OR outcome = $5)
        AND ($6::timestamptz IS NULL OR (created_at, delivery_id) < ($6::timestamptz, $7::text))
      ORDER BY created_at DESC, delivery_id DESC
      LIMIT $8`,
    [p.businessId, p.from, p.to, p.event ?? null, p.outcome ?? null, p.before?.at ?? null, p.before?.id ?? null, p.limit],
  );
  return r.rows.map((x) => ({
    deliveryId: x.delivery_id,
    bookingId: x.booking_id,
    sequence: x.sequence,
    event: x.event,
    status: x.status,
    attemptCount: x.attempt_count,
    nextAttemptAt: x.next_attempt_at,
    lastAttemptAt: x.last_attempt_at,
    outcome: x.outcome,
    statusCode: x.status_code,
    createdAt: x.created_at,
    positionAt: x.position_at,
  }));
}

/** The attempts of a page of deliveries, in one query. */
export async function listAttempts(q: Queryable, deliveryIds: readonly string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  const r = await q.query<{
    delivery_id: string;
    attempt: number;
    started_at: Date;
    duration_ms: number;
    outcome: AttemptRow['outcome'];
    status_code: number | null;
    error: string | null;
  }>(
    `SELECT delivery_id, attempt, started_at, duration_ms, outcome, status_code, error
       FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY delivery_id, attempt`,
    [deliveryIds],
  );
  return r.rows.map((x) => ({
    deliveryId: x.delivery_id,
    attempt: x.attempt,
    startedAt: x.started_at,
    durationMs: x.duration_ms,
    outcome: x.outcome,
    statusCode: x.status_code,
    error: x.error,
  }));
}

/** One delivery record of the business, or undefined. */
export async function findDelivery(q: Queryable, businessId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
  const r = await q.query<Omit<Row, 'position_at'>>(
    `SELECT delivery_id, booking_id, sequence, event, status, attempt_count, next_attempt_at, last_attempt_at,
            outcome, status_code, created_at
       FROM webhook_deliveries WHERE delivery_id = $1 AND business_id = $2`,
    [deliveryId, businessId],
  );
  const x = r.rows[0];
  if (!x) return undefined;
  return {
    deliveryId: x.delivery_id,
    bookingId: x.booking_id,
    sequence: x.sequence,
    event: x.event,
    status: x.status,
    attemptCount: x.attempt_count,
    nextAttemptAt: x.next_attempt_at,
    lastAttemptAt: x.last_attempt_at,
    outcome: x.outcome,
    statusCode: x.status_code,
    createdAt: x.created_at,
  };
}
