import { withdrawInvitationsOf } from '../../store/invitations.ts';
import { AppError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { memberView, type MemberView } from '../../domain/members/member-view.ts';
import { decoyHash, hashPassword, verifyPassword } from '../../domain/members/password.ts';
import { hashToken, isWellFormedToken } from '../../domain/members/secret-token.ts';
import { signInFailed } from '../../domain/members/sign-in-failure.ts';
import type { Db } from '../../store/db.ts';
import { claimInvitation, findOpenInvitationByToken, recordAcceptedBy } from '../../store/invitations.ts';
import { addMembership } from '../../store/memberships.ts';
import { findUserByEmail, insertUser, membershipsOf } from '../../store/users.ts';
import { ACCOUNT_ACTIONS } from '../../domain/audit/actions.ts';
import { recordAudit } from '../audit/record.ts';
import { startSession } from './start-session.ts';
import type { CountedAttempt } from './sign-in-limit.ts';

/** One answer for an unknown, used, withdrawn or expired token: which of them is not told. */
function notValid(): AppError {
  return new AppError(
    'request.not_found',
    'This invitation link is not valid: it was used already, withdrawn, or it expired. Ask for a new invitation.',
  );
}

/**
 * POST /invitations/accept: the invited person gets an account (or, when one with the invited
 * email exists, proves it with its password) and the invitation's membership, and is signed in.
 *
 * The password work (a scrypt hash, ~0.1 s) is done before the transaction, on an unlocked read of
 * the invitation; the transaction then takes the invitation with one conditional UPDATE, so two
 * acceptances of one token never both succeed: the loser finds it accepted and gets the same 404
 * as a used link. Everything (account, membership, the invitation's acceptance, the session) is
 * one transaction: a failure leaves the link usable. An existing account keeps its name and
 * password; if it is already a member of the business, its role stays as it is (roles change
 * with PATCH) and the invitation is used up. `checkLimit` (the sign-in limits) runs for every
 * acceptance, so a leaked link is no password oracle and a limit reached says nothing of whether
 * the address has an account. A wrong password answers exactly as sign-in's wrong password does
 * (signInFailed): the answer names no account. Both paths spend one scrypt hash, so they take
 * alike too.
 */
export async function acceptInvitation(
  db: Db,
  input: { token: string; name: string; password: string },
  checkLimit: (email: string) => Promise<CountedAttempt>,
  requestId: string,
): Promise<{ member: MemberView; token: string; expiresAt: Date }> {
  if (!isWellFormedToken(input.token)) throw notValid();
  const tokenHash = hashToken(input.token);
  const open = await findOpenInvitationByToken(db, tokenHash);
  if (!open) throw notValid();
  const attempt = await checkLimit(open.email);
  const existing = await findUserByEmail(db, open.email);
  let newHash: string | undefined;
  if (existing) {
    const matches = await verifyPassword(input.password, existing.passwordHash ?? (await decoyHash()));
    if (existing.passwordHash === null || !matches) throw signInFailed();
  } else {
    newHash = await hashPassword(input.password);
  }
  const accepted = await db.transaction(async (tx) => {
    const inv = await claimInvitation(tx, tokenHash);
    if (!inv) throw notValid();
    let user = existing;
    if (!user) {
      const inserted = await insertUser(tx, { id: newId('usr'), email: inv.email, name: input.name.trim(), passwordHash: newHash! });
      // Another invitation to the same new email was accepted in the same instant; run again, this
      // one then finds that account and checks its password.
      if (inserted === 'email_taken') throw new AppError('internal.error', 'An account for this email was just created; retry.');
      user = inserted;
    }
    await addMembership(tx, inv.businessId, user.id, inv.role);
    await recordAcceptedBy(tx, inv.id, user.id);
    // Other open links to the same address are spent with this one: left open, they would outlive a
    // later removal or role change of this member.
    await withdrawInvitationsOf(tx, inv.businessId, { email: inv.email, invitedBy: null });
    // The business's audit log learns who joined, with which role, in the same transaction.
    await recordAudit(tx, {
      businessId: inv.businessId,
      actor: { type: 'member', id: user.id, name: user.name ?? null, role: inv.role },
      action: ACCOUNT_ACTIONS.acceptInvitation,
      target: { type: 'member', id: user.id },
      requestId,
      fields: [],
    });
    // The hash checked above (or the new account's): a reset committed since then rolls all of this back.
    const session = await startSession(tx, user.id, existing?.passwordHash ?? newHash!);
    if (!session) throw signInFailed();
    const memberships = await membershipsOf(tx, user.id);
    return {
      member: memberView({ id: user.id, email: inv.email, name: user.name ?? inv.email, language: user.language }, memberships),
      ...session,
    };
  });
  // Accepted: the attempt does not use up the sign-in limits (sign-in-limit.ts).
  await attempt.succeeded();
  return accepted;
}
