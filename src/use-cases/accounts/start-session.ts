import { newId } from '../../domain/ids.ts';
import { newSecretToken } from '../../domain/members/secret-token.ts';
import { SESSION_MAX_SECONDS } from '../../domain/members/session-policy.ts';
import type { Queryable } from '../../store/db.ts';
import { insertSession } from '../../store/member-sessions.ts';

/**
 * A new session for a user whose password was checked against `passwordHash`. The returned token is
 * the cookie value: it exists only in this answer and in the member's browser; the database keeps
 * its hash. Undefined when the password changed since it was checked (a reset in between): the
 * caller answers as for a wrong password.
 */
export async function startSession(
  q: Queryable,
  userId: string,
  passwordHash: string,
): Promise<{ token: string; expiresAt: Date } | undefined> {
  const { token, hash } = newSecretToken();
  const expiresAt = await insertSession(q, { id: newId('msn'), userId, tokenHash: hash, maxSeconds: SESSION_MAX_SECONDS, passwordHash });
  return expiresAt && { token, expiresAt };
}
