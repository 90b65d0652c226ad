import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from '../domain/mail.ts';

/**
 * Mail through the SMTP server of SMTP_URL (`smtp://` with STARTTLS when offered, `smtps://` TLS from
 * the start). One connection per message: invitations are rare, and nothing is left open between
 * them. Bounded waits, so a dead server costs a request seconds, not minutes.
 */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return {
    async send(message: MailMessage): Promise<void> {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    async close(): Promise<void> {
      transport.close();
    },
  };
}
