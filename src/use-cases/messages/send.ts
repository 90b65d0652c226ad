import { linkToken } from '../../domain/guest-links.ts';
import type { BookingSnapshot, WaitlistOfferData } from '../../domain/messages/snapshot.ts';
import type { Channels, Outgoing } from '../../notify/channel.ts';
import type { Db } from '../../store/db.ts';
import { offerStillOpen } from '../../store/waitlist.ts';
import { findMessagesToSend, recordAttempts, type AttemptEnd, type MessageRow, type MessageToSend } from '../../store/message-rows.ts';
import { mailContent, mailText, smsText, type MailContent, type MailInput } from '../../ui/mail/content.ts';
import { messageCalendar } from '../../ui/mail/ics.ts';
import { mailHtml } from '../../ui/mail/mail-html.tsx';
import { isLang } from '../../ui/i18n/index.ts';
import { manageUrl, manageUrlOf } from '../guest/manage-link.ts';

export interface SendDeps {
  db: Db;
  channels: Channels;
  publicBaseUrl: string;
  mailFrom: string;
  /** the server secret (manage and waitlist links are HMACs under it) */
  secret: () => Promise<Buffer>;
}

/** Why a message was not sent, for the row's last_error. */
class Skip extends Error {}

const NOT_CONFIGURED = { email: 'SMTP_URL is not set: no mail is sent', sms: 'SMS_GATEWAY_URL is not set: no SMS is sent' } as const;

/** One send's end: sent, skipped (nothing to send, or no longer), or the Error the channel failed with. */
export type SendResult = 'sent' | 'skipped' | Error;

/**
 * One attempt at each of a batch of message rows (the `message.send` jobs): one read of the rows
 * with what they need, the sends (over the channel's pooled connections), and one write of every
 * outcome; the same rules for one row as for many. A row that is no longer pending was ended by an
 * earlier run: nothing is sent again. A reminder is sent only while its booking is confirmed at the
 * time it was planned for and has not started. The Message-ID comes from the row, so the one
 * repeat a crash between the server's accept and the record can cause is the same message to the
 * recipient's mail system. `last`: no retry follows a failure (the row ends failed). A failure's
 * Error holds no address.
 */
export async function sendMessages(deps: SendDeps, items: ReadonlyArray<{ messageId: string; last: boolean }>): Promise<SendResult[]> {
  const rows = new Map(
    (
      await findMessagesToSend(
        deps.db,
        items.map((i) => i.messageId),
      )
    ).map((r) => [r.id, r]),
  );
  const ends: AttemptEnd[] = [];
  const sending: Array<Promise<SendResult>> = [];
  for (const [i, item] of items.entries()) {
    // Each message is composed in a turn of its own, so requests are served between them.
    if (i > 0) await new Promise((r) => setImmediate(r));
    sending.push(attempt(deps, rows.get(item.messageId), item.last, ends));
  }
  const results = await Promise.all(sending);
  await recordAttempts(deps.db, ends);
  return results;
}

async function attempt(deps: SendDeps, row: MessageToSend | undefined, last: boolean, ends: AttemptEnd[]): Promise<SendResult> {
  if (row?.status !== 'pending') return 'skipped';
  const channel = deps.channels[row.channel];
  let message: Outgoing;
  try {
    if (!channel) throw new Skip(NOT_CONFIGURED[row.channel]);
    message = await compose(deps, row);
  } catch (err) {
    if (!(err instanceof Skip)) return failed(row, err, last, ends);
    ends.push({ id: row.id, status: 'skipped', error: err.message, attempted: false });
    return 'skipped';
  }
  try {
    await channel.send(message);
  } catch (err) {
    return failed(row, err, last, ends);
  }
  ends.push({ id: row.id, status: 'sent', error: null, attempted: true });
  return 'sent';
}

/** A failed attempt (the row ends `failed` after the last); the job retries on the returned Error. */
function failed(row: MessageRow, err: unknown, last: boolean, ends: AttemptEnd[]): Error {
  const error = scrub(err, row.recipient);
  ends.push({ id: row.id, status: last ? 'failed' : 'pending', error, attempted: true });
  return new Error(error);
}

async function compose(deps: SendDeps, row: MessageToSend): Promise<Outgoing> {
  const lang = isLang(row.lang) ? row.lang : 'en';
  const host = new URL(deps.publicBaseUrl).hostname;
  const id = `<${row.id}@${host}>`;
  if (row.kind === 'waitlist.offer') {
    const offer = row.data as unknown as WaitlistOfferData;
    // An offer claimed, withdrawn or passed on before its message went out is not offered any more.
    if (!(await offerStillOpen(deps.db, offer.offerId))) throw new Skip('the offer has ended');
    const secret = await deps.secret();
    const c = mailContent({
      kind: row.kind,
      lang,
      offer,
      claimUrl: `${deps.publicBaseUrl}/claim/${linkToken(secret, 'claim', offer.claimNonce)}`,
      withdrawUrl: `${deps.publicBaseUrl}/waitlist/withdraw/${linkToken(secret, 'withdraw', offer.withdrawNonce)}`,
    });
    return outgoing(row, id, c, undefined);
  }
  const booking = row.booking;
  const bookingId = row.bookingId;
  const businessName = row.businessName;
  if (!booking || bookingId === null || businessName === null) throw new Skip('the booking no longer exists');
  const snapshot = (row.data as { booking?: BookingSnapshot }).booking;
  if (!snapshot) throw new Skip('the message has no booking data');
  if (row.kind === 'booking.reminder') checkReminder(booking, snapshot, row.dbNow);
  const guest = row.audience === 'guest';
  const links = { secret: await deps.secret(), publicBaseUrl: deps.publicBaseUrl };
  // The live link read with the row; written only for a booking that has none yet.
  const link = !guest
    ? null
    : row.manageNonce !== null
      ? manageUrlOf(links, row.manageNonce)
      : await manageUrl(deps.db, links, { id: bookingId, businessId: row.businessId });
  const input: MailInput = {
    kind: row.kind,
    lang,
    businessName,
    booking: snapshot,
    manageUrl: link,
    dashboardUrl: guest ? null : `${deps.publicBaseUrl}/dashboard/`,
  };
  const c = mailContent(input);
  const method: 'REQUEST' | 'CANCEL' = row.kind === 'booking.cancelled' || row.kind === 'booking.declined' ? 'CANCEL' : 'REQUEST';
  const calendar = guest
    ? {
        method,
        content: messageCalendar(bookingId, snapshot, {
          method,
          businessName,
          uidDomain: host,
          organizerEmail: addressOf(deps.mailFrom),
          manageUrl: link,
          now: new Date(),
        }),
      }
    : undefined;
  return outgoing(row, id, c, calendar);
}

function outgoing(row: MessageRow, messageId: string, c: MailContent, calendar: Outgoing['calendar']): Outgoing {
  if (row.channel === 'sms') return { messageId: row.id, to: row.recipient, subject: c.subject, text: smsText(c) };
  return { messageId, to: row.recipient, subject: c.subject, text: mailText(c), html: mailHtml(c), calendar };
}

/** guest-side.md: only for a booking confirmed when due, at the time the reminder was planned for, and never late. */
function checkReminder(booking: { status: string; startAt: Date }, planned: BookingSnapshot, dbNow: Date): void {
  if (booking.status !== 'confirmed') throw new Skip(`the booking is ${booking.status}`);
  if (booking.startAt.toISOString() !== planned.time.startAt) throw new Skip('the booking moved to another time');
  if (dbNow.getTime() >= booking.startAt.getTime()) throw new Skip('the booking has started');
}

function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from;
}

/** A channel error's text without the recipient or any address: it goes to the row, job_attempts and the log. */
function scrub(err: unknown, recipient: string): string {
  const text = (err instanceof Error ? err.message : String(err)).slice(0, 300);
  return text
    .split(recipient)
    .join('***')
    .replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, '***')
    .replace(/\+?\d[\d\s-]{6,}\d/g, '***');
}
