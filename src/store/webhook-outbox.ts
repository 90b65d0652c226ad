import type { AttemptOutcome, DeliveryStatus } from '../domain/webhooks/retry-policy.ts';
import type { Queryable } from './db.ts';

/** The channel a committed booking transaction that queued a delivery notifies (booking-events.ts). */
export const OUTBOX_CHANNEL = 'webhook_outbox';

/** One delivery a worker holds the lease of, with the exact payload bytes to send. */
export interface ClaimedDelivery {
  deliveryId: string;
  businessId: string;
  event: string;
  /** the attempt about to be made: the row's attempt_count + 1 */
  attempt: number;
  /** the lease as the database wrote it (exact text), the guard of every later write */
  lease: string;
  payload: string;
  /** the business's webhook as it is now (read with the claim), or null when it was deleted */
  target: { url: string; secretCiphertext: string } | null;
}

/**
 * Claims up to `limit` due deliveries in one short statement (committed before any HTTP call):
 * pending or retry rows whose time has come, and `processing` rows whose lease lapsed because
 * their worker died. SKIP LOCKED lets concurrent workers claim disjoint rows without waiting;
 * the new lease makes a claimed row invisible to the others until it lapses. The same statement
 * reads the payload and the business's current webhook URL and secret, so an attempt costs one
 * round trip before the HTTP call (on PGlite every query queues behind the bookings being written).
 */
export async function claimDue(q: Queryable, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const r = await q.query<{
    delivery_id: string;
    business_id: string;
    event: string;
    attempt_count: number;
    lease: string;
    payload: string;
    url: string | null;
    secret_ciphertext: string | null;
  }>(
    `WITH due AS (
       SELECT delivery_id, business_id, booking_id, sequence FROM webhook_deliveries
        WHERE status IN ('pending', 'retry_scheduled', 'processing')
          AND next_attempt_at <= now()
          AND (locked_until IS NULL OR locked_until <= now())
        ORDER BY next_attempt_at
        LIMIT $1
        FOR UPDATE SKIP LOCKED
     )
     UPDATE webhook_deliveries d
        SET status = 'processing', locked_until = clock_timestamp() + $2 * interval '1 millisecond'
       FROM due
       JOIN booking_events e ON e.booking_id = due.booking_id AND e.sequence = due.sequence
       LEFT JOIN webhook_configs c ON c.business_id = due.business_id
      WHERE d.delivery_id = due.delivery_id
     RETURNING d.delivery_id, d.business_id, d.event, d.attempt_count, d.locked_until::text AS lease, e.payload,
               c.url, c.secret_ciphertext`,
    [limit, leaseMs],
  );
  return r.rows.map((row) => ({
    deliveryId: row.delivery_id,
    businessId: row.business_id,
    event: row.event,
    attempt: row.attempt_count + 1,
    lease: row.lease,
    payload: row.payload,
    target: row.url !== null && row.secret_ciphertext !== null ? { url: row.url, secretCiphertext: row.secret_ciphertext } : null,
  }));
}

export interface AttemptRecord {
  startedAt: Date;
  durationMs: number;
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
}

/**
 * Records attempt `d.attempt` and the delivery's next state in one statement (so both or neither),
 * only while `d`'s lease is still the row's: a worker whose lease lapsed and was taken over finds
 * nothing to update and its late result is dropped ('lost'). One exception: a delivery that was
 * ended `failed` while the attempt was in flight (the webhook was deleted; no one else holds it)
 * still gets the attempt that was really made, and stays `failed` ('disabled').
 */
export async function recordAttempt(
  q: Queryable,
  d: Pick<ClaimedDelivery, 'deliveryId' | 'attempt' | 'lease'>,
  a: AttemptRecord,
  next: { status: Exclude<DeliveryStatus, 'pending' | 'processing'>; waitMs?: number },
): Promise<'recorded' | 'disabled' | 'lost'> {
  const recorded = await q.query(
    `WITH upd AS (
       UPDATE webhook_deliveries
          SET status = $3, attempt_count = $2, last_attempt_at = $4, outcome = $6, status_code = $7,
              next_attempt_at = CASE WHEN $3 = 'retry_scheduled' THEN now() + $9 * interval '1 millisecond' END,
              locked_until = NULL
        WHERE delivery_id = $1 AND status = 'processing' AND attempt_count = $2 - 1 AND locked_until = $10::timestamptz
       RETURNING delivery_id
     ), ins AS (
       INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, outcome, status_code, error)
       SELECT delivery_id, $2, $4, $5, $6, $7, $8 FROM upd
     )
     SELECT 1 FROM upd`,
    [d.deliveryId, d.attempt, next.status, a.startedAt, a.durationMs, a.outcome, a.statusCode, a.error, next.waitMs ?? 0, d.lease],
  );
  if (recorded.rows.length > 0) return 'recorded';
  // A statement of its own, so it sees a DELETE that committed while the one above waited for the
  // row's lock (that one's snapshot predates it): the attempt really made is still recorded.
  const disabled = await q.query(
    `WITH disabled AS (
       UPDATE webhook_deliveries
          SET attempt_count = $2, last_attempt_at = $3, outcome = $5, status_code = $6
        WHERE delivery_id = $1 AND status = 'failed' AND attempt_count = $2 - 1 AND locked_until IS NULL
       RETURNING delivery_id
     ), ins AS (
       INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, outcome, status_code, error)
       SELECT delivery_id, $2, $3, $4, $5, $6, $7 FROM disabled
     )
     SELECT 1 FROM disabled`,
    [d.deliveryId, d.attempt, a.startedAt, a.durationMs, a.outcome, a.statusCode, a.error],
  );
  return disabled.rows.length > 0 ? 'disabled' : 'lost';
}

/** Ends a held delivery `failed` without an attempt: its webhook was deleted. Guarded like recordAttempt. */
export async function failWithoutAttempt(q: Queryable, d: Pick<ClaimedDelivery, 'deliveryId' | 'lease'>): Promise<boolean> {
  const r = await q.query(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, locked_until = NULL
      WHERE delivery_id = $1 AND status = 'processing' AND locked_until = $2::timestamptz`,
    [d.deliveryId, d.lease],
  );
  return r.rowCount === 1;
}

/** Gives a held delivery back untouched (a worker stopping before it sent anything). */
export async function releaseLease(q: Queryable, d: Pick<ClaimedDelivery, 'deliveryId' | 'lease'>): Promise<void> {
  await q.query(
    `UPDATE webhook_deliveries SET locked_until = NULL
      WHERE delivery_id = $1 AND status = 'processing' AND locked_until = $2::timestamptz`,
    [d.deliveryId, d.lease],
  );
}

/**
 * Deletes delivery records (their attempts cascade) created more than 12 months ago, in batches so
 * that no single statement holds many locks; final ones only, so an old stuck row is never lost
 * silently. Returns how many went.
 */
export async function purgeOldDeliveries(q: Queryable, batch = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await q.query(
      `DELETE FROM webhook_deliveries WHERE delivery_id IN (
         SELECT delivery_id FROM webhook_deliveries
          WHERE created_at < now() - interval '12 months' AND status IN ('succeeded', 'failed', 'exhausted')
          LIMIT $1)`,
      [batch],
    );
    total += r.rowCount;
    if (r.rowCount < batch) return total;
  }
}

/**
 * Takes the lease of one delivery of the business for an operator's redelivery, whatever its
 * status, unless an attempt is in flight (a live lease). The row becomes `processing` and due now,
 * so should this process die before recording, the lease lapses and a worker makes the attempt.
 * Read with the same payload and current webhook as `claimDue`. 'not_found' when the business has no
 * such delivery, 'busy' when it is leased.
 */
export async function claimForRedelivery(
  q: Queryable,
  p: { businessId: string; deliveryId: string; leaseMs: number },
): Promise<ClaimedDelivery | 'not_found' | 'busy'> {
  const r = await q.query<{
    delivery_id: string;
    business_id: string;
    event: string;
    attempt_count: number;
    lease: string;
    payload: string;
    url: string | null;
    secret_ciphertext: string | null;
  }>(
    `UPDATE webhook_deliveries d
        SET status = 'processing', next_attempt_at = now(), locked_until = clock_timestamp() + $3 * interval '1 millisecond'
       FROM booking_events e
      WHERE d.delivery_id = $1 AND d.business_id = $2
        AND e.booking_id = d.booking_id AND e.sequence = d.sequence
        AND (d.locked_until IS NULL OR d.locked_until <= now())
     RETURNING d.delivery_id, d.business_id, d.event, d.attempt_count, d.locked_until::text AS lease, e.payload,
               (SELECT c.url FROM webhook_configs c WHERE c.business_id = d.business_id) AS url,
               (SELECT c.secret_ciphertext FROM webhook_configs c WHERE c.business_id = d.business_id) AS secret_ciphertext`,
    [p.deliveryId, p.businessId, p.leaseMs],
  );
  const row = r.rows[0];
  if (!row) {
    const exists = await q.query('SELECT 1 FROM webhook_deliveries WHERE delivery_id = $1 AND business_id = $2', [
      p.deliveryId,
      p.businessId,
    ]);
    return exists.rows.length > 0 ? 'busy' : 'not_found';
  }
  return {
    deliveryId: row.delivery_id,
    businessId: row.business_id,
    event: row.event,
    attempt: row.attempt_count + 1,
    lease: row.lease,
    payload: row.payload,
    target: row.url !== null && row.secret_ciphertext !== null ? { url: row.url, secretCiphertext: row.secret_ciphertext } : null,
  };
}
