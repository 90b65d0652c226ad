import type { MailMessage } from '../mail.ts';
import type { MemberRole } from './roles.ts';

/** business-side.md: an invitation's token is single-use and valid 7 days. */
export const INVITATION_VALID_SECONDS = 7 * 24 * 60 * 60;

/** The link the invited person opens: the dashboard's page that posts the token to /invitations/accept. */
export function acceptUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/dashboard/accept-invitation?token=${encodeURIComponent(token)}`;
}

const ROLE_NAMES: Record<MemberRole, string> = { owner: 'an owner', manager: 'a manager', frontDesk: 'front desk staff' };

/** The invitation mail: who invites to what, the link, and until when it works. */
export function invitationMail(i: { to: string; businessName: string; role: MemberRole; acceptUrl: string; expiresAt: Date }): MailMessage {
  return {
    to: i.to,
    subject: `You are invited to ${i.businessName}`,
    text: [
      `You are invited to join ${i.businessName} as ${ROLE_NAMES[i.role]}.`,
      '',
      'Open this link to choose your name and password (or to use the account you already have):',
      i.acceptUrl,
      '',
      `The link works once, until ${i.expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
      'If you did not expect this invitation, ignore this mail.',
    ].join('\n'),
  };
}
