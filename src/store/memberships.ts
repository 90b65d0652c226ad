import type { MemberRole } from '../domain/members/roles.ts';
import type { Queryable } from './db.ts';

/** A member of one business as its members list shows them. */
export interface MemberRecord {
  userId: string;
  /** null for a user from before accounts (a personal key's holder) */
  email: string | null;
  name: string;
  role: MemberRole;
  createdAt: Date;
}

const MEMBER_SELECT = `SELECT u.id AS "userId", u.email, COALESCE(u.name, u.email, u.id) AS name, m.role, m.created_at AS "createdAt"
  FROM memberships m JOIN users u ON u.id = m.user_id`;

export async function listMembers(q: Queryable, businessId: string): Promise<MemberRecord[]> {
  const r = await q.query<MemberRecord>(`${MEMBER_SELECT} WHERE m.business_id = $1 ORDER BY m.created_at, u.id`, [businessId]);
  return r.rows;
}

export async function findMember(q: Queryable, businessId: string, userId: string): Promise<MemberRecord | undefined> {
  const r = await q.query<MemberRecord>(`${MEMBER_SELECT} WHERE m.business_id = $1 AND m.user_id = $2`, [businessId, userId]);
  return r.rows[0];
}

/**
 * Every membership row of the business, locked until the transaction ends, in one order (no
 * deadlock between two changers): a role change or removal decides the last-owner rule on rows no
 * other change can move under it.
 */
export async function lockMemberships(q: Queryable, businessId: string): Promise<Array<{ userId: string; role: MemberRole }>> {
  const r = await q.query<{ userId: string; role: MemberRole }>(
    'SELECT user_id AS "userId", role FROM memberships WHERE business_id = $1 ORDER BY user_id FOR UPDATE',
    [businessId],
  );
  return r.rows;
}

export async function setMemberRole(q: Queryable, businessId: string, userId: string, role: MemberRole): Promise<void> {
  await q.query('UPDATE memberships SET role = $3 WHERE business_id = $1 AND user_id = $2', [businessId, userId, role]);
}

/** Adds a membership; `false` when the user already had one in that business (left as it was). */
export async function addMembership(q: Queryable, businessId: string, userId: string, role: MemberRole): Promise<boolean> {
  const r = await q.query(
    'INSERT INTO memberships (business_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT (business_id, user_id) DO NOTHING',
    [businessId, userId, role],
  );
  return r.rowCount === 1;
}

export async function countMembershipsOf(q: Queryable, userId: string): Promise<number> {
  const r = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM memberships WHERE user_id = $1', [userId]);
  return r.rows[0]?.n ?? 0;
}

export async function isMemberByEmail(q: Queryable, businessId: string, email: string): Promise<boolean> {
  const r = await q.query('SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.business_id = $1 AND u.email = $2', [
    businessId,
    email,
  ]);
  return r.rows.length > 0;
}
