import type { Db } from '../../src/store/db.ts';

/**
 * Makes `userId` a member of the business (creating the user row when missing), directly in the
 * database: a personal key may only be issued to an existing member. Idempotent, so a fixed id may
 * be reused across runs sharing one PostgreSQL database. The one place tests make members until
 * invitations can be accepted through the API.
 */
export async function addMember(db: Db, businessId: string, userId: string, role = 'frontDesk'): Promise<void> {
  await db.query('INSERT INTO users (id) VALUES ($1) ON CONFLICT DO NOTHING', [userId]);
  await db.query('INSERT INTO memberships (business_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    businessId,
    userId,
    role,
  ]);
}
