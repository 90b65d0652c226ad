import type { Queryable } from './db.ts';

/** Open: not used, and not expired on the database's clock. */
const OPEN = 'used_at IS NULL AND expires_at > now()';

/** Expiry is reckoned on the database's clock, as the confirmation's check of it is. */
export async function insertPasswordReset(
  q: Queryable,
  r: { id: string; userId: string; tokenHash: string; validSeconds: number },
): Promise<Date> {
  const res = await q.query<{ expires_at: Date }>(
    `INSERT INTO password_resets (id, user_id, token_hash, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
    [r.id, r.userId, r.tokenHash, r.validSeconds],
  );
  return res.rows[0]!.expires_at;
}

/** Whether a token names an open link, read without a lock (the confirmation's preparation). */
export async function isOpenPasswordReset(q: Queryable, tokenHash: string): Promise<boolean> {
  const r = await q.query(`SELECT 1 FROM password_resets WHERE token_hash = $1 AND ${OPEN}`, [tokenHash]);
  return r.rows.length > 0;
}

/**
 * Spends the link for one confirmation: one conditional UPDATE, so of two confirmations of one
 * token exactly one gets the row (the other waits for its lock, then finds it used). The user
 * whose link it was, or undefined when the token names no open link.
 */
export async function claimPasswordReset(q: Queryable, tokenHash: string): Promise<string | undefined> {
  const r = await q.query<{ user_id: string }>(
    `UPDATE password_resets SET used_at = now() WHERE token_hash = $1 AND ${OPEN} RETURNING user_id`,
    [tokenHash],
  );
  return r.rows[0]?.user_id;
}

/** Every other open link of the user: a reset leaves no second way in behind it. */
export async function spendPasswordResetsOf(q: Queryable, userId: string): Promise<number> {
  const r = await q.query('UPDATE password_resets SET used_at = now() WHERE user_id = $1 AND used_at IS NULL', [userId]);
  return r.rowCount;
}
