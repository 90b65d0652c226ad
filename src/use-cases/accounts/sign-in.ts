import { memberView, type MemberView } from '../../domain/members/member-view.ts';
import { decoyHash, verifyPassword } from '../../domain/members/password.ts';
import { normaliseEmail } from '../../domain/members/secret-token.ts';
import { signInFailed } from '../../domain/members/sign-in-failure.ts';
import type { Db } from '../../store/db.ts';
import { findUserByEmail, membershipsOf } from '../../store/users.ts';
import { startSession } from './start-session.ts';

/**
 * Signs a member in. The rate limit (sign-in-limit.ts) is checked by the caller first. An unknown
 * email still runs a password hash, so the two failures take the same time as well as reading alike.
 * A person with no membership left has nothing to sign in to and fails the same way.
 */
export async function signIn(
  db: Db,
  input: { email: string; password: string },
): Promise<{ member: MemberView; token: string; expiresAt: Date }> {
  const email = normaliseEmail(input.email);
  const user = await findUserByEmail(db, email);
  const stored = user?.passwordHash ?? (await decoyHash());
  const matches = await verifyPassword(input.password, stored);
  if (!user || user.passwordHash === null || !matches) throw signInFailed();
  const memberships = await membershipsOf(db, user.id);
  if (memberships.length === 0) throw signInFailed();
  // A reset committed during the hash check above leaves no session made with the old password.
  const session = await startSession(db, user.id, user.passwordHash);
  if (!session) throw signInFailed();
  const { token, expiresAt } = session;
  return { member: memberView({ id: user.id, email, name: user.name ?? email, language: user.language }, memberships), token, expiresAt };
}
