import type { MemberLanguage } from '../domain/members/member-view.ts';
import type { MemberRole } from '../domain/members/roles.ts';
import type { Queryable } from './db.ts';
import { isUniqueViolation } from './db-errors.ts';

export interface UserRecord {
  id: string;
  email: string | null;
  name: string | null;
  language: MemberLanguage;
  /** only the sign-in and acceptance use cases read it; never rendered */
  passwordHash: string | null;
}

export interface MembershipRecord {
  businessId: string;
  businessSlug: string;
  businessName: string;
  role: MemberRole;
}

const USER_COLUMNS = 'id, email, name, language, password_hash AS "passwordHash"';

export async function findUserByEmail(q: Queryable, email: string): Promise<UserRecord | undefined> {
  const r = await q.query<UserRecord>(`SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [email]);
  return r.rows[0];
}

export async function findUserById(q: Queryable, id: string): Promise<UserRecord | undefined> {
  const r = await q.query<UserRecord>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
  return r.rows[0];
}

/** `email_taken`: another account has that email (two acceptances racing for one new address). */
export async function insertUser(
  q: Queryable,
  u: { id: string; email: string; name: string; passwordHash: string },
): Promise<UserRecord | 'email_taken'> {
  try {
    const r = await q.query<UserRecord>(
      `INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, $3, $4) RETURNING ${USER_COLUMNS}`,
      [u.id, u.email, u.name, u.passwordHash],
    );
    return r.rows[0]!;
  } catch (err) {
    if (isUniqueViolation(err)) return 'email_taken';
    throw err;
  }
}

export async function membershipsOf(q: Queryable, userId: string): Promise<MembershipRecord[]> {
  const r = await q.query<MembershipRecord>(
    `SELECT b.id AS "businessId", b.slug AS "businessSlug", b.name AS "businessName", m.role
       FROM memberships m JOIN businesses b ON b.id = m.business_id
      WHERE m.user_id = $1
      ORDER BY b.name, b.slug`,
    [userId],
  );
  return r.rows;
}

export async function setPasswordHash(q: Queryable, userId: string, passwordHash: string): Promise<void> {
  await q.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
}

/** The member's own choice of the dashboard's language. */
export async function setLanguage(q: Queryable, userId: string, language: MemberLanguage): Promise<void> {
  await q.query('UPDATE users SET language = $2 WHERE id = $1', [userId, language]);
}
