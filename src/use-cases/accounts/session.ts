import { memberView, type MemberView } from '../../domain/members/member-view.ts';
import type { Db } from '../../store/db.ts';
import { endSession, type LiveSession } from '../../store/member-sessions.ts';

/** GET /session: the signed-in member, from the session the auth hook has just read. */
export function currentMember(session: LiveSession): MemberView {
  return memberView({ id: session.userId, email: session.email, name: session.name }, session.memberships);
}

/** DELETE /session: the session ends on the server; the cookie alone would outlive a sign-out. */
export async function signOut(db: Db, session: LiveSession): Promise<void> {
  await endSession(db, session.sessionId);
}
