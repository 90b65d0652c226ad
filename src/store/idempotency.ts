import type { Queryable } from './db.ts';

export type ClaimResult =
  /**
   * `lease`: the claim's expiry as text (microseconds kept). A takeover happens only after a lease
   * has lapsed and sets a later one, so it also tells this claim from any that took the key over.
   */
  { kind: 'claimed'; lease: string } | { kind: 'replay'; status: number; body: string } | { kind: 'mismatch' } | { kind: 'in_progress' };

/**
 * Claims a key in one autocommitted statement, so a concurrent duplicate sees the claim at once and
 * is told "in progress" instead of queueing behind the first request's transaction. An expired
 * record (24 h) starts over; a claim whose lease lapsed (its request crashed) is taken over.
 */
export async function claimKey(
  q: Queryable,
  c: { businessId: string; key: string; operation: string; fingerprint: string; leaseMs: number },
): Promise<ClaimResult> {
  const claimed = await q.query<{ lease: string }>(
    `INSERT INTO idempotency_records (business_id, idempotency_key, operation, fingerprint, state, locked_until, created_at)
     VALUES ($1, $2, $3, $4, 'processing', now() + make_interval(secs => $5::double precision / 1000), now())
     ON CONFLICT (business_id, idempotency_key) DO UPDATE
        SET operation = EXCLUDED.operation, fingerprint = EXCLUDED.fingerprint, state = 'processing',
            locked_until = EXCLUDED.locked_until, response_status = NULL, response_body = NULL,
            created_at = EXCLUDED.created_at
      WHERE idempotency_records.created_at < now() - interval '24 hours'
         OR (idempotency_records.state = 'processing' AND idempotency_records.locked_until < now()
             AND idempotency_records.fingerprint = EXCLUDED.fingerprint)
     RETURNING locked_until::text AS lease`,
    [c.businessId, c.key, c.operation, c.fingerprint, c.leaseMs],
  );
  if (claimed.rows[0]) return { kind: 'claimed', lease: claimed.rows[0].lease };

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

/**
 * Stores the response; called inside the operation's own transaction so both commit together.
 * False when the key is no longer a claim in progress: its lease lapsed and a duplicate that took
 * it over has completed it already (that answer stands; this request's writes must be undone).
 */
export async function completeKey(q: Queryable, businessId: string, key: string, status: number, body: string): Promise<boolean> {
  const r = await q.query(
    `UPDATE idempotency_records SET state = 'completed', locked_until = NULL, response_status = $3, response_body = $4
      WHERE business_id = $1 AND idempotency_key = $2 AND state = 'processing'
      RETURNING 1`,
    [businessId, key, status, body],
  );
  return r.rows.length > 0;
}

/** A key's completion written by the operation's own write statement (settledKeyCtes). */
export interface KeyCompletion {
  businessId: string;
  key: string;
  status: number;
  body: string;
  /** set by the store once a statement that carried it has stored it (a guard against forgetting it) */
  written: boolean;
}

/**
 * The CTEs that make an operation's single write statement its whole transaction, response
 * included: `held` locks the key's record while it is still a claim in progress, and `settled`
 * stores the response once the CTE `guard` (the write, which must select from `held`) has a row.
 * When a duplicate that took over a lapsed claim has completed the key first, `held` is empty and
 * nothing is written: one key never gets two writes. Four parameters from $first (completionParams).
 */
export function settledKeyCtes(first: number, guard: string): { held: string; settled: string } {
  const p = (i: number) => `$${first + i}`;
  return {
    held: `held AS (
       SELECT 1 FROM idempotency_records
        WHERE business_id = ${p(0)} AND idempotency_key = ${p(1)} AND state = 'processing'
        FOR UPDATE
     )`,
    settled: `settled AS (
       UPDATE idempotency_records SET state = 'completed', locked_until = NULL, response_status = ${p(2)}::int,
              response_body = ${p(3)}::text
        WHERE business_id = ${p(0)} AND idempotency_key = ${p(1)} AND EXISTS (SELECT 1 FROM ${guard})
       RETURNING 1
     )`,
  };
}

export function completionParams(c: KeyCompletion): unknown[] {
  return [c.businessId, c.key, c.status, c.body];
}

/**
 * Frees a claim whose request failed in a way worth retrying with the same key — this request's
 * own claim only: once its lease lapsed and a duplicate took the key over, that duplicate's claim
 * stays (deleting it would leave the duplicate unable to store its answer).
 */
export async function releaseKey(q: Queryable, businessId: string, key: string, lease: string): Promise<void> {
  await q.query(
    `DELETE FROM idempotency_records
      WHERE business_id = $1 AND idempotency_key = $2 AND state = 'processing' AND locked_until = $3::timestamptz`,
    [businessId, key, lease],
  );
}

export async function purgeExpiredKeys(q: Queryable): Promise<number> {
  const r = await q.query(`DELETE FROM idempotency_records WHERE created_at < now() - interval '24 hours'`);
  return r.rowCount;
}
