import { type MemberLanguage, memberView, type MemberView } from '../../domain/members/member-view.ts';
import type { Db } from '../../store/db.ts';
import { endSession, type LiveSession } from '../../store/member-sessions.ts';
import { setLanguage } from '../../store/users.ts';

/** GET /session: the signed-in member, from the session the auth hook has just read. */
export function currentMember(session: LiveSession): MemberView {
  return memberView({ id: session.userId, email: session.email, name: session.name, language: session.language }, session.memberships);
}

/** DELETE /session: the session ends on the server; the cookie alone would outlive a sign-out. */
export async function signOut(db: Db, session: LiveSession): Promise<void> {
  await endSession(db, session.sessionId);
}

/** PATCH /session: the member's own settings (their language), for every session and business of theirs. */
export async function updateOwnSettings(db: Db, session: LiveSession, input: { language: MemberLanguage }): Promise<MemberView> {
  await setLanguage(db, session.userId, input.language);
  return currentMember({ ...session, language: input.language });
}
