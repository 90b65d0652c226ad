import nodemailer from 'nodemailer';
import type { Channel, Outgoing } from './channel.ts';

/**
 * Mail through the SMTP server of SMTP_URL (`smtp://` with STARTTLS when offered, `smtps://` TLS from
 * the start). One connection per message, nothing left open between them; bounded waits, so a dead
 * server costs a worker slot seconds, not minutes. The Message-ID is the caller's: the same for
 * every attempt of one message.
 */
export function createSmtpChannel(smtpUrl: string, from: string, opts: { timeoutMs?: number; pool?: boolean } = {}): Channel {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: Math.min(10_000, timeoutMs),
    greetingTimeout: Math.min(10_000, timeoutMs),
    socketTimeout: timeoutMs,
    // The worker's sends share a few kept-open connections: a burst of reminders (10,000 due in one
    // minute, performance.md) would otherwise pay a TCP and SMTP handshake per message.
    ...(opts.pool ? { pool: true, maxConnections: 4, maxMessages: 500 } : {}),
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return {
    kind: 'email',
    async send(m: Outgoing): Promise<void> {
      await transport.sendMail({
        from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        ...(m.html === undefined ? {} : { html: m.html }),
        messageId: m.messageId,
        ...(m.calendar
          ? {
              // The inline part calendars act on, and the same file as an attachment for the others.
              icalEvent: { method: m.calendar.method, content: m.calendar.content, filename: 'booking.ics' },
              attachments: [
                {
                  filename: 'booking.ics',
                  content: m.calendar.content,
                  contentType: `application/ics; method=${m.calendar.method}`,
                },
              ],
            }
          : {}),
      });
    },
    async close(): Promise<void> {
      transport.close();
    },
  };
}
