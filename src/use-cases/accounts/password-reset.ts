import { AppError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import type { Mailer } from '../../domain/mail.ts';
import { hashPassword } from '../../domain/members/password.ts';
import { PASSWORD_RESET_VALID_SECONDS, passwordResetMail, resetUrl } from '../../domain/members/password-reset.ts';
import { hashToken, isWellFormedToken, newSecretToken, normaliseEmail } from '../../domain/members/secret-token.ts';
import type { Db } from '../../store/db.ts';
import { endSessionsOfUser } from '../../store/member-sessions.ts';
import { claimPasswordReset, insertPasswordReset, isOpenPasswordReset, spendPasswordResetsOf } from '../../store/password-resets.ts';
import { findUserByEmail, setPasswordHash } from '../../store/users.ts';

/** Without SMTP_URL there is no way to prove an address: both reset routes refuse. */
export function requireMailer(mailer: Mailer | undefined): Mailer {
  if (!mailer) throw new AppError('mail.not_configured');
  return mailer;
}

/**
 * POST /password-reset, the part after the answer: the route has already answered 202 (the same
 * answer for every email) before this looks the account up, so neither the answer nor its timing
 * tells whether the account exists. An email with no account gets nothing. An account gets a
 * single-use link valid one hour; only the token's hash is stored, the token leaves in the mail.
 * A failed send rejects (the caller logs it, never the address or the link); the stored link then
 * is simply never used.
 */
export async function sendPasswordReset(deps: { db: Db; mailer: Mailer; publicBaseUrl: string }, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, normaliseEmail(email));
  if (!user?.email) return;
  const { token, hash } = newSecretToken();
  const expiresAt = await insertPasswordReset(deps.db, {
    id: newId('pwr'),
    userId: user.id,
    tokenHash: hash,
    validSeconds: PASSWORD_RESET_VALID_SECONDS,
  });
  await deps.mailer.send(passwordResetMail({ to: user.email, resetUrl: resetUrl(deps.publicBaseUrl, token), expiresAt }));
}

/** One answer for an unknown, used or expired link: which of them is not told. */
function notValid(): AppError {
  return new AppError(
    'request.not_found',
    'This password reset link is not valid: it was used already, or it expired (links work for one hour). Ask for a new one.',
  );
}

/**
 * POST /password-reset/confirm: sets the account's password from a mailed link. The hash (~0.1 s)
 * is made before the transaction, after an unlocked check that the link is open; the transaction
 * then spends the link with one conditional UPDATE, so of two confirmations of one link exactly one
 * succeeds. The same transaction sets the password, ends every session of the account (whoever
 * held it, a squatter included, is signed out everywhere) and spends the account's other open
 * links. It does not sign in: the person signs in with the new password, which proves it works.
 */
export async function confirmPasswordReset(db: Db, input: { token: string; password: string }): Promise<void> {
  if (!isWellFormedToken(input.token)) throw notValid();
  const tokenHash = hashToken(input.token);
  if (!(await isOpenPasswordReset(db, tokenHash))) throw notValid();
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const userId = await claimPasswordReset(tx, tokenHash);
    if (!userId) throw notValid();
    await setPasswordHash(tx, userId, passwordHash);
    await endSessionsOfUser(tx, userId);
    await spendPasswordResetsOf(tx, userId);
  });
}
