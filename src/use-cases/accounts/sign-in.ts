import { AppError } from '../../domain/errors.ts';
import { memberView, type MemberView } from '../../domain/members/member-view.ts';
import { decoyHash, verifyPassword } from '../../domain/members/password.ts';
import { normaliseEmail } from '../../domain/members/secret-token.ts';
import type { Db } from '../../store/db.ts';
import { findUserByEmail, membershipsOf } from '../../store/users.ts';
import { startSession } from './start-session.ts';

/** One message for an unknown email and a wrong password: which emails have accounts is not told. */
const FAILED = 'The email or password is not right.';

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
  if (!user || user.passwordHash === null || !matches) throw new AppError('auth.invalid_key', FAILED);
  const memberships = await membershipsOf(db, user.id);
  if (memberships.length === 0) throw new AppError('auth.invalid_key', FAILED);
  const { token, expiresAt } = await startSession(db, user.id);
  return { member: memberView({ id: user.id, email, name: user.name ?? email }, memberships), token, expiresAt };
}
