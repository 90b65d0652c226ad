import type { MemberRole } from '../domain/members/roles.ts';
import type { Queryable } from './db.ts';

/** An invitation as the business sees it; its token exists only in the create answer and the mail. */
export interface InvitationRecord {
  id: string;
  businessId: string;
  email: string;
  role: MemberRole;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  withdrawnAt: Date | null;
}

const COLUMNS = `id, business_id AS "businessId", email, role, created_at AS "createdAt", expires_at AS "expiresAt",
  accepted_at AS "acceptedAt", withdrawn_at AS "withdrawnAt"`;

/** Open: neither accepted nor withdrawn, and not expired on the database's clock. */
const OPEN = 'accepted_at IS NULL AND withdrawn_at IS NULL AND expires_at > now()';

/** Expiry is reckoned on the database's clock, as the acceptance's check of it is. */
export async function insertInvitation(
  q: Queryable,
  i: { id: string; businessId: string; email: string; role: MemberRole; tokenHash: string; invitedBy: string | null; validSeconds: number },
): Promise<InvitationRecord> {
  const r = await q.query<InvitationRecord>(
    `INSERT INTO invitations (id, business_id, email, role, token_hash, invited_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))
     RETURNING ${COLUMNS}`,
    [i.id, i.businessId, i.email, i.role, i.tokenHash, i.invitedBy, i.validSeconds],
  );
  return r.rows[0]!;
}

export async function listOpenInvitations(q: Queryable, businessId: string): Promise<InvitationRecord[]> {
  const r = await q.query<InvitationRecord>(
    `SELECT ${COLUMNS} FROM invitations WHERE business_id = $1 AND ${OPEN} ORDER BY created_at, id`,
    [businessId],
  );
  return r.rows;
}

/** Withdraws an open invitation; undefined when there is no open one with that id. */
export async function withdrawInvitation(q: Queryable, id: string): Promise<InvitationRecord | undefined> {
  const r = await q.query<InvitationRecord>(`UPDATE invitations SET withdrawn_at = now() WHERE id = $1 AND ${OPEN} RETURNING ${COLUMNS}`, [
    id,
  ]);
  return r.rows[0];
}

/** The open invitation a token names, read without a lock (the acceptance's preparation). */
export async function findOpenInvitationByToken(q: Queryable, tokenHash: string): Promise<InvitationRecord | undefined> {
  const r = await q.query<InvitationRecord>(`SELECT ${COLUMNS} FROM invitations WHERE token_hash = $1 AND ${OPEN}`, [tokenHash]);
  return r.rows[0];
}

/**
 * Takes the invitation for one acceptance: one conditional UPDATE, so of two acceptances of one
 * token exactly one gets the row (the other waits for its lock, then finds it accepted).
 * Undefined when the token names no open invitation.
 */
export async function claimInvitation(q: Queryable, tokenHash: string): Promise<InvitationRecord | undefined> {
  const r = await q.query<InvitationRecord>(
    `UPDATE invitations SET accepted_at = now() WHERE token_hash = $1 AND ${OPEN} RETURNING ${COLUMNS}`,
    [tokenHash],
  );
  return r.rows[0];
}

export async function recordAcceptedBy(q: Queryable, invitationId: string, userId: string): Promise<void> {
  await q.query('UPDATE invitations SET accepted_by = $2 WHERE id = $1', [invitationId, userId]);
}
