import type { Queryable } from './db.ts';

export type ClaimResult =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

/**
 * Claims a key in one autocommitted statement, so a concurrent duplicate sees the claim at once and
 * is told "in progress" instead of queueing behind the first request's transaction. An expired
 * record (24 h) starts over; a claim whose lease lapsed (its request crashed) is taken over.
 */
export async function claimKey(
  q: Queryable,
  c: { businessId: string; key: string; operation: string; fingerprint: string; leaseMs: number },
): Promise<ClaimResult> {
  const claimed = await q.query(
    `INSERT INTO idempotency_records (business_id, idempotency_key, operation, fingerprint, state, locked_until, created_at)
     VALUES ($1, $2, $3, $4, 'processing', now() + make_interval(secs => $5::double precision / 1000), now())
     ON CONFLICT (business_id, idempotency_key) DO UPDATE
        SET operation = EXCLUDED.operation, fingerprint = EXCLUDED.fingerprint, state = 'processing',
            locked_until = EXCLUDED.locked_until, response_status = NULL, response_body = NULL,
            created_at = EXCLUDED.created_at
      WHERE idempotency_records.created_at < now() - interval '24 hours'
         OR (idempotency_records.state = 'processing' AND idempotency_records.locked_until < now()
             AND idempotency_records.fingerprint = EXCLUDED.fingerprint)
     RETURNING 1`,
    [c.businessId, c.key, c.operation, c.fingerprint, c.leaseMs],
  );
  if (claimed.rowCount > 0) return { kind: 'claimed' };

  const r = await q.query<{ fingerprint: string; state: string; response_status: number | null; response_body: string | null }>(
    `SELECT fingerprint, state, response_status, response_body FROM idempotency_records
      WHERE business_id = $1 AND idempotency_key = $2`,
    [c.businessId, c.key],
  );
  const row = r.rows[0];
  // Gone between the two statements (released by a failing first request): a retry will claim it.
  if (!row) return { kind: 'in_progress' };
  if (row.fingerprint !== c.fingerprint) return { kind: 'mismatch' };
  if (row.state === 'completed' && row.response_status !== null && row.response_body !== null) {
    return { kind: 'replay', status: row.response_status, body: row.response_body };
  }
  return { kind: 'in_progress' };
}

/** Stores the response; called inside the operation's own transaction so both commit together. */
export async function completeKey(
  q: Queryable,
  businessId: string,
  key: string,
  status: number,
  body: string,
): Promise<void> {
  await q.query(
    `UPDATE idempotency_records SET state = 'completed', locked_until = NULL, response_status = $3, response_body = $4
      WHERE business_id = $1 AND idempotency_key = $2`,
    [businessId, key, status, body],
  );
}

/** Frees a claim whose request failed in a way worth retrying with the same key. */
export async function releaseKey(q: Queryable, businessId: string, key: string): Promise<void> {
  await q.query(
    `DELETE FROM idempotency_records WHERE business_id = $1 AND idempotency_key = $2 AND state = 'processing'`,
    [businessId, key],
  );
}

export async function purgeExpiredKeys(q: Queryable): Promise<number> {
  const r = await q.query(`DELETE FROM idempotency_records WHERE created_at < now() - interval '24 hours'`);
  return r.rowCount;
}
