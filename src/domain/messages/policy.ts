import type { SourceKind } from '../bookings/source.ts';
import type { GuestSettings } from '../guest-settings/settings.ts';
import { newId } from '../ids.ts';
import type { MessageChannel, MessageKind, NewMessage } from './kinds.ts';
import { reminderSendAt } from './reminder-time.ts';
import type { BookingSnapshot } from './snapshot.ts';

/** A booking event as the policy reads it (store/booking-events.ts StoredEvent, its payload parsed). */
export interface PolicyEvent {
  name: string;
  sequence: number;
  actor: 'guest' | 'member' | 'operator' | 'api' | null;
  bookingId: string;
  /** the booking right after the event, as the messages will describe it */
  booking: BookingSnapshot;
  /**
   * The same write also confirmed the booking (an automatic service: `booking.requested` and
   * `booking.confirmed` in one create). The guest then hears once, that it is confirmed.
   */
  confirmedInSameWrite: boolean;
}

export interface PolicyContext {
  businessId: string;
  settings: GuestSettings;
  source: SourceKind;
  guest: { email: string | null; phone: string };
  /** the guest's language (the booking page's consent.locale) */
  lang: string;
  /** the plan has smsNotifications */
  smsFeature: boolean;
  /** owners and managers with an address */
  businessRecipients: ReadonlyArray<{ memberId: string; email: string }>;
  /** the database's clock: a reminder whose time has passed is recorded skipped, never sent late */
  now: Date;
}

/** The guest message each event causes (booking.requested is decided apart: see guestKindOf). */
const GUEST_KIND: Record<string, MessageKind | undefined> = {
  'booking.confirmed': 'booking.confirmed',
  'booking.declined': 'booking.declined',
  'booking.cancelled': 'booking.cancelled',
  'booking.reschedule_confirmed': 'booking.rescheduled',
  'booking.reschedule_proposed': 'booking.reschedule_proposed',
};

function guestKindOf(e: PolicyEvent): MessageKind | undefined {
  if (e.name === 'booking.requested') return e.confirmedInSameWrite ? undefined : 'booking.received';
  return GUEST_KIND[e.name];
}

/** Whether the business lets the guest be written to about this booking (notifications.guestEmail). */
function guestMayHear(ctx: PolicyContext): boolean {
  const mode = ctx.settings.notifications.guestEmail;
  return mode === 'all' || (mode === 'bookingPageOnly' && ctx.source === 'bookingPage');
}

/**
 * Who is told what about one booking event (guest-side.md "Notifications"): the guest's message of
 * the event, on email and (when the plan and the settings allow) SMS; the owners' and managers' mail
 * of a new request or a guest's cancellation; and, when the booking is now confirmed at a time, one
 * reminder per `notifications.reminders` entry. Every row's unique key makes planning it again a
 * no-op, so the follow-up may run as often as a crash makes it.
 */
export function planEventMessages(e: PolicyEvent, ctx: PolicyContext): NewMessage[] {
  const out: NewMessage[] = [];
  const b = e.booking;
  const data = { booking: b };
  const guestChannels = guestMayHear(ctx) ? channelsOf(ctx) : [];
  const kind = guestKindOf(e);
  if (kind) {
    for (const [channel, to] of guestChannels) {
      out.push(row(ctx, e.bookingId, kind, channel, to, data, { stateVersion: e.sequence, scheduledAt: ctx.now }));
    }
  }
  const notes = ctx.settings.notifications;
  const toBusiness =
    (e.name === 'booking.requested' && !e.confirmedInSameWrite && notes.businessEmail.newRequest) ||
    (e.name === 'booking.cancelled' && e.actor === 'guest' && notes.businessEmail.guestCancelled);
  if (toBusiness) {
    const businessKind = e.name === 'booking.requested' ? 'business.new_request' : 'business.guest_cancelled';
    for (const m of ctx.businessRecipients) {
      out.push({
        ...row(ctx, e.bookingId, businessKind, 'email', m.email, data, { stateVersion: e.sequence, scheduledAt: ctx.now }),
        audience: 'business',
        recipientMemberId: m.memberId,
        // Business mail is in English: members have no language of their own yet.
        lang: 'en',
      });
    }
  }
  if (b.status === 'confirmed') {
    const startAt = new Date(b.time.startAt);
    for (const r of notes.reminders) {
      const at = reminderSendAt(startAt, r.minutesBefore, b.timezone, notes.quietHours);
      for (const [channel, to] of guestChannels) {
        const m = row(ctx, e.bookingId, 'booking.reminder', channel, to, data, {
          reminderMinutes: r.minutesBefore,
          startAt,
          scheduledAt: at,
        });
        if (at.getTime() <= ctx.now.getTime()) m.skippedBecause = 'its time had passed when the booking was confirmed or moved';
        out.push(m);
      }
    }
  }
  return out;
}

function channelsOf(ctx: PolicyContext): Array<[MessageChannel, string]> {
  const out: Array<[MessageChannel, string]> = [];
  if (ctx.guest.email) out.push(['email', ctx.guest.email]);
  if (ctx.smsFeature && ctx.settings.notifications.sms) out.push(['sms', ctx.guest.phone]);
  return out;
}

function row(
  ctx: PolicyContext,
  bookingId: string,
  kind: MessageKind,
  channel: MessageChannel,
  recipient: string,
  data: { booking: BookingSnapshot },
  at: { stateVersion?: number; reminderMinutes?: number; startAt?: Date; scheduledAt: Date },
): NewMessage {
  // A reminder is one per start time: a moved booking gets new ones, a repeat of the same time does not.
  const which = at.reminderMinutes === undefined ? `v${at.stateVersion}` : `r${at.reminderMinutes}@${at.startAt!.toISOString()}`;
  return {
    id: newId('msg'),
    businessId: ctx.businessId,
    bookingId,
    kind,
    channel,
    audience: 'guest',
    recipient,
    lang: ctx.lang,
    stateVersion: at.stateVersion ?? null,
    reminderMinutes: at.reminderMinutes ?? null,
    uniqueKey: `${bookingId}:${kind}:${which}:${channel}:${recipient}`,
    data,
    scheduledAt: at.scheduledAt,
  };
}

/** The guest's language from the booking page's consent locale (`hu-HU` → hu); English otherwise. */
export function guestLangOf(locale: string | null | undefined): 'en' | 'hu' {
  const base = (locale ?? '').toLowerCase().split(/[-_]/)[0];
  return base === 'hu' ? 'hu' : 'en';
}
