/** The message kinds of guest-side.md "Notifications" (fixed names). */
export const GUEST_MESSAGE_KINDS = [
  'booking.received',
  'booking.confirmed',
  'booking.declined',
  'booking.cancelled',
  'booking.rescheduled',
  'booking.reschedule_proposed',
  'booking.reminder',
  'waitlist.offer',
] as const;
export const BUSINESS_MESSAGE_KINDS = ['business.new_request', 'business.guest_cancelled'] as const;
export type MessageKind = (typeof GUEST_MESSAGE_KINDS)[number] | (typeof BUSINESS_MESSAGE_KINDS)[number];
export type MessageChannel = 'email' | 'sms';
export type MessageStatus = 'pending' | 'sent' | 'failed' | 'skipped';

/** One message as planned: to one recipient, on one channel, at one time. */
export interface NewMessage {
  id: string;
  businessId: string;
  bookingId: string | null;
  waitlistEntryId?: string | null;
  kind: MessageKind;
  channel: MessageChannel;
  audience: 'guest' | 'business';
  recipient: string;
  recipientMemberId?: string | null;
  lang: string;
  stateVersion?: number | null;
  reminderMinutes?: number | null;
  /** planned at most once per key: (booking or entry, kind, version or reminder, channel, recipient) */
  uniqueKey: string;
  resendOf?: string | null;
  /** what the template needs beyond the booking (a waitlist offer's time and link nonces) */
  data?: Record<string, unknown>;
  scheduledAt: Date;
  /** recorded as `skipped` with this reason and never sent (a reminder whose time had passed) */
  skippedBecause?: string | undefined;
}
