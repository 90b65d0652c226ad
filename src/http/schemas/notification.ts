import { Type } from 'typebox';
import { BUSINESS_MESSAGE_KINDS, GUEST_MESSAGE_KINDS } from '../../domain/messages/kinds.ts';

export const MESSAGE_STATUSES = ['pending', 'sent', 'failed', 'skipped'] as const;

/** One message of the messages log (guest-side.md "Notifications"). */
export const Notification = Type.Object({
  id: Type.String({ description: 'the message id (`msg_…`), for a resend' }),
  bookingId: Type.Union([Type.String(), Type.Null()], { description: 'the booking it is about; null for a waitlist offer' }),
  kind: Type.Enum([...GUEST_MESSAGE_KINDS, ...BUSINESS_MESSAGE_KINDS], {
    description: 'what the message says: a guest message (`booking.*`, `waitlist.offer`) or one to owners and managers (`business.*`)',
  }),
  channel: Type.Enum(['email', 'sms']),
  to: Type.String({
    description:
      'the recipient, masked: an address as its first character, `***` and the domain (`p***@example.com`); a number as its country code and first group, stars, and its last two digits (`+36 30 *** **67`)',
  }),
  status: Type.Enum(MESSAGE_STATUSES, {
    description:
      'pending: planned or being retried; sent: the server or gateway took it; failed: every attempt failed; skipped: no longer true when due (a reminder of a booking cancelled or moved)',
  }),
  attempts: Type.Integer({ minimum: 0, description: 'sending attempts made so far' }),
  lastError: Type.Union([Type.String(), Type.Null()], {
    description: "the last attempt's error, with any address or number in it masked as `to` is",
  }),
  scheduledAt: Type.String({ format: 'date-time', description: 'when it is (or was) due' }),
  sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const NotificationsQuery = Type.Object({
  bookingId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: "only this booking's messages (required for the front desk)" }),
  ),
  status: Type.Optional(Type.Enum(MESSAGE_STATUSES, { description: 'only messages in this status' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'page size' })),
  cursor: Type.Optional(Type.String({ maxLength: 2048, description: 'meta.cursor of the previous page' })),
});

export const NotificationParams = Type.Object({
  notificationId: Type.String({ minLength: 1, maxLength: 100, description: 'The `id` of the message in the messages log.' }),
});
