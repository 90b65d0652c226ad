import type { MailMessage } from '../mail.ts';

/** members-and-sessions.md "Password reset": a mailed link works once, for one hour. */
export const PASSWORD_RESET_VALID_SECONDS = 60 * 60;

/** The link in the mail: the dashboard's page that posts the token to /password-reset/confirm. */
export function resetUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/dashboard/reset-password?token=${encodeURIComponent(token)}`;
}

/** The reset mail: the link, until when it works, and what to do when nobody asked. */
export function passwordResetMail(r: { to: string; resetUrl: string; expiresAt: Date }): MailMessage {
  return {
    to: r.to,
    subject: 'Reset your password',
    text: [
      'Someone asked to reset the password of the bookings dashboard account with this email.',
      '',
      'Open this link to choose a new password:',
      r.resetUrl,
      '',
      `The link works once, until ${r.expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC. Setting a new password`,
      'signs the account out everywhere.',
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}
