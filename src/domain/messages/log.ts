import { AppError } from '../errors.ts';
import type { MemberRole } from '../members/roles.ts';
import type { MessageChannel, MessageKind, MessageStatus, NewMessage } from './kinds.ts';
import { maskErrorText, maskRecipient } from './mask.ts';

/** A row of the messages table as the log and a resend read it. */
export interface StoredMessage extends NewMessage {
  status: MessageStatus;
  attempts: number;
  lastError: string | null;
  sentAt: Date | null;
}

/** One message as the messages log shows it (guest-side.md "Notifications"): the recipient masked. */
export interface NotificationView {
  id: string;
  bookingId: string | null;
  kind: MessageKind;
  channel: MessageChannel;
  to: string;
  status: MessageStatus;
  attempts: number;
  lastError: string | null;
  scheduledAt: string;
  sentAt: string | null;
}

export function notificationView(m: StoredMessage): NotificationView {
  return {
    id: m.id,
    bookingId: m.bookingId,
    kind: m.kind,
    channel: m.channel,
    to: maskRecipient(m.channel, m.recipient),
    status: m.status,
    attempts: m.attempts,
    lastError: m.lastError === null ? null : maskErrorText(m.lastError, m.channel, m.recipient),
    scheduledAt: m.scheduledAt.toISOString(),
    sentAt: m.sentAt?.toISOString() ?? null,
  };
}

/**
 * The message a resend plans: the original's kind, channel, recipient, language, state version or
 * reminder and data, due now, naming the original. Its own unique key, so it is planned although
 * the original's key is taken; the sender treats it as any message (a reminder of a booking no
 * longer confirmed is skipped, as the original would have been).
 */
export function resendMessage(original: StoredMessage, id: string, now: Date): NewMessage {
  return {
    id,
    businessId: original.businessId,
    bookingId: original.bookingId,
    waitlistEntryId: original.waitlistEntryId ?? null,
    kind: original.kind,
    channel: original.channel,
    audience: original.audience,
    recipient: original.recipient,
    recipientMemberId: original.recipientMemberId ?? null,
    lang: original.lang,
    stateVersion: original.stateVersion ?? null,
    reminderMinutes: original.reminderMinutes ?? null,
    uniqueKey: `${original.uniqueKey}:resend:${id}`,
    resendOf: original.id,
    data: original.data ?? {},
    scheduledAt: now,
  };
}

/** Who reads or resends: the platform operator, or a member with a role in the message's business. */
export type LogCaller = 'platform' | MemberRole;

const WHOLE_LOG: readonly MemberRole[] = ['owner', 'manager'];

/**
 * Owners and managers see the whole log; the front desk sees the messages of one booking at a
 * time (they answer a guest who asks about their booking, not the business's mail), and so may
 * resend only a message about a booking.
 */
export function requireLogAccess(caller: LogCaller, bookingId: string | null | undefined): void {
  if (caller === 'platform' || WHOLE_LOG.includes(caller) || bookingId) return;
  throw new AppError('auth.insufficient_capability', 'The front desk sees the messages of one booking: give its bookingId.', {
    required: [...WHOLE_LOG],
    granted: caller,
  });
}
