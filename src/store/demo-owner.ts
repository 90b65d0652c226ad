import type { MemberRole } from '../domain/members/roles.ts';
import type { Queryable } from './db.ts';

/** The demo salon's owner account and its membership, written once with the demo seed. */
export async function insertDemoOwner(
  q: Queryable,
  owner: { userId: string; email: string; name: string; passwordHash: string; businessId: string; role: MemberRole },
): Promise<void> {
  await q.query('INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, $3, $4)', [
    owner.userId,
    owner.email,
    owner.name,
    owner.passwordHash,
  ]);
  await q.query('INSERT INTO memberships (business_id, user_id, role) VALUES ($1, $2, $3)', [owner.businessId, owner.userId, owner.role]);
}
