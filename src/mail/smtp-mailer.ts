import { randomUUID } from 'node:crypto';
import type { Mailer, MailMessage } from '../domain/mail.ts';
import { createSmtpChannel } from '../notify/smtp.ts';

/**
 * Invitation and password-reset mail through SMTP_URL: the guest messages' SMTP channel
 * (src/notify/smtp.ts), one plain-text message to one address.
 */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const channel = createSmtpChannel(smtpUrl, from);
  const host = /@([^>\s]+)>?$/.exec(from)?.[1] ?? 'localhost';
  return {
    async send(message: MailMessage): Promise<void> {
      await channel.send({ messageId: `<${randomUUID()}@${host}>`, to: message.to, subject: message.subject, text: message.text });
    },
    close: () => channel.close(),
  };
}
