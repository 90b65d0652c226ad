import { AppError, invalidField } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import type { Mailer } from '../../domain/mail.ts';
import { acceptUrl, INVITATION_VALID_SECONDS, invitationMail } from '../../domain/members/invitation.ts';
import type { MemberRole } from '../../domain/members/roles.ts';
import { newSecretToken, normaliseEmail } from '../../domain/members/secret-token.ts';
import type { Db } from '../../store/db.ts';
import { insertInvitation, listOpenInvitations, withdrawInvitation, type InvitationRecord } from '../../store/invitations.ts';
import { isMemberByEmail } from '../../store/memberships.ts';
import { requireBusiness } from './businesses.ts';

/** An invitation as lists show it: never its token (only its hash is stored). */
export interface InvitationView {
  id: string;
  email: string;
  role: MemberRole;
  createdAt: string;
  expiresAt: string;
}

/** The create answer: the one place the accept link (with its token) is ever returned. */
export interface CreatedInvitation extends InvitationView {
  acceptUrl: string;
  /** true once the SMTP server took the mail; false without SMTP_URL or when sending failed */
  mailSent: boolean;
}

function invitationView(r: InvitationRecord): InvitationView {
  return { id: r.id, email: r.email, role: r.role, createdAt: r.createdAt.toISOString(), expiresAt: r.expiresAt.toISOString() };
}

export interface InviteDeps {
  db: Db;
  mailer: Mailer | undefined;
  publicBaseUrl: string;
  /** a mail that could not be sent: the invitation stands, the caller logs (never the link) */
  onMailError: (err: unknown) => void;
}

/**
 * Invites an email into a business with a role (the platform operator invites a new business's
 * first owner this way). The token is made here, stored as its hash, and leaves only in the answer
 * and the mail. The mail is sent after the invitation is committed: a mail server that is down
 * costs the mail (`mailSent: false`, a warning in the log), never the invitation, whose link the
 * answer carries anyway. Someone already a member is refused: a role changes with PATCH.
 */
export async function inviteMember(
  deps: InviteDeps,
  businessSlug: string,
  input: { email: string; role: MemberRole },
  invitedBy: string | null,
): Promise<CreatedInvitation> {
  const email = normaliseEmail(input.email);
  const { token, hash } = newSecretToken();
  const { record, businessName } = await deps.db.transaction(async (tx) => {
    const b = await requireBusiness(tx, businessSlug);
    if (await isMemberByEmail(tx, b.id, email)) {
      throw invalidField(
        'body.email',
        'is already a member of this business; change a role with PATCH /businesses/{slug}/members/{userId}',
      );
    }
    const rec = await insertInvitation(tx, {
      id: newId('inv'),
      businessId: b.id,
      email,
      role: input.role,
      tokenHash: hash,
      invitedBy,
      validSeconds: INVITATION_VALID_SECONDS,
    });
    return { record: rec, businessName: b.name };
  });
  const url = acceptUrl(deps.publicBaseUrl, token);
  let mailSent = false;
  if (deps.mailer) {
    try {
      await deps.mailer.send(invitationMail({ to: email, businessName, role: record.role, acceptUrl: url, expiresAt: record.expiresAt }));
      mailSent = true;
    } catch (err) {
      deps.onMailError(err);
    }
  }
  return { ...invitationView(record), acceptUrl: url, mailSent };
}

/** Open invitations (not accepted, not withdrawn, not expired), oldest first. */
export async function listInvitations(db: Db, businessSlug: string): Promise<InvitationView[]> {
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, businessSlug);
    return (await listOpenInvitations(tx, b.id)).map(invitationView);
  });
}

/** Withdraws an open invitation: its link stops working at once. */
export async function withdrawInvitationById(db: Db, invitationId: string): Promise<InvitationView & { withdrawnAt: string }> {
  const r = await withdrawInvitation(db, invitationId);
  if (!r)
    throw new AppError('request.not_found', `No open invitation with id "${invitationId}" (unknown, accepted, withdrawn or expired).`);
  return { ...invitationView(r), withdrawnAt: (r.withdrawnAt ?? new Date()).toISOString() };
}
