import type { Queryable } from './db.ts';

/** A manage token's row; the id and nonce come from the domain. */
export interface ManageTokenRow {
  id: string;
  businessId: string;
  bookingId: string;
  nonce: string;
  tokenHash: string;
}

/** The live manage token's nonce of a booking, written when it has none (both callers race safely). */
export async function ensureManageNonce(q: Queryable, row: ManageTokenRow): Promise<string> {
  // Two first readers (the done page and the worker writing the confirmation) may race: the live
  // index lets one insert win, and both read back the winner's nonce.
  const r = await q.query<{ nonce: string }>(
    `WITH made AS (
       INSERT INTO manage_tokens (id, business_id, booking_id, nonce, token_hash)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (booking_id) WHERE ended_at IS NULL DO NOTHING
       RETURNING nonce
     )
     SELECT nonce FROM made
     UNION ALL
     SELECT nonce FROM manage_tokens WHERE booking_id = $3 AND ended_at IS NULL AND NOT EXISTS (SELECT 1 FROM made)`,
    [row.id, row.businessId, row.bookingId, row.nonce, row.tokenHash],
  );
  return r.rows[0]!.nonce;
}

/** Ends the live token (if any) and writes a new one, in the caller's transaction. */
export async function replaceManageToken(tx: Queryable, row: ManageTokenRow): Promise<void> {
  await tx.query('UPDATE manage_tokens SET ended_at = now() WHERE booking_id = $1 AND ended_at IS NULL', [row.bookingId]);
  await tx.query('INSERT INTO manage_tokens (id, business_id, booking_id, nonce, token_hash) VALUES ($1, $2, $3, $4, $5)', [
    row.id,
    row.businessId,
    row.bookingId,
    row.nonce,
    row.tokenHash,
  ]);
}

/** The booking a live manage token opens. */
export async function bookingOfManageToken(
  q: Queryable,
  tokenHash: string,
): Promise<{ bookingId: string; businessId: string } | undefined> {
  const r = await q.query<{ booking_id: string; business_id: string }>(
    'SELECT booking_id, business_id FROM manage_tokens WHERE token_hash = $1 AND ended_at IS NULL',
    [tokenHash],
  );
  const row = r.rows[0];
  return row ? { bookingId: row.booking_id, businessId: row.business_id } : undefined;
}
