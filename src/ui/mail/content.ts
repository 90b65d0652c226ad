import type { MessageKind } from '../../domain/messages/kinds.ts';
import type { BookingSnapshot, SnapshotTime, WaitlistOfferData } from '../../domain/messages/snapshot.ts';
import { instantToLocal } from '../../domain/time/wall-clock.ts';
import { formatDate } from '../format.ts';
import type { Lang } from '../i18n/index.ts';
import { mailMessages } from './catalog.ts';

/** What one message is made from: the row's kind, language and data, and the links of its audience. */
export type MailInput =
  | {
      kind: Exclude<MessageKind, 'waitlist.offer'>;
      lang: Lang;
      businessName: string;
      booking: BookingSnapshot;
      /** the guest's manage link (guest messages); null in business mail, which must not carry it */
      manageUrl: string | null;
      dashboardUrl: string | null;
    }
  | { kind: 'waitlist.offer'; lang: Lang; offer: WaitlistOfferData; claimUrl: string; withdrawUrl: string };

/** One message's words, in the order both parts show them: the HTML and the text part are made from this. */
export interface MailContent {
  lang: Lang;
  subject: string;
  title: string;
  /** the local time the message is about, zone named */
  when: string;
  intro: string;
  details: Array<{ label: string; value: string }>;
  links: Array<{ label: string; url: string }>;
  note: string | null;
  footer: string;
  /** the business's name, which an SMS starts with */
  sender: string;
}

/** `Monday 2 June 2031, 10:00–10:30 (Europe/Budapest)`: local time with its zone named. */
export function whenText(lang: Lang, t: Pick<SnapshotTime, 'date' | 'startTime'> & { endTime?: string }, timezone: string): string {
  const span = t.endTime ? `${t.startTime}–${t.endTime}` : t.startTime;
  return `${formatDate(lang, t.date, 'long')}, ${span} (${timezone})`;
}

export function mailContent(m: MailInput): MailContent {
  const t = mailMessages(m.lang);
  if (m.kind === 'waitlist.offer') {
    const o = m.offer;
    const when = whenText(m.lang, o, o.timezone);
    const expires = instantToLocal(new Date(o.expiresAt), o.timezone);
    return {
      lang: m.lang,
      subject: `${o.salonName}: ${t.title[m.kind]} – ${formatDate(m.lang, o.date, 'long')} ${o.startTime}`,
      title: t.title[m.kind],
      when,
      intro: t.intro[m.kind](o.salonName),
      details: [
        { label: t.service, value: o.serviceName },
        ...(o.staffName ? [{ label: t.staff, value: o.staffName }] : []),
        { label: t.when, value: when },
        { label: t.where, value: o.locationName },
      ],
      links: [
        { label: t.claim, url: m.claimUrl },
        { label: t.withdraw, url: m.withdrawUrl },
      ],
      note: t.heldUntil(whenText(m.lang, { date: expires.date, startTime: expires.time }, o.timezone)),
      footer: t.footer(o.salonName),
      sender: o.salonName,
    };
  }
  const b = m.booking;
  const details = [
    ...(m.kind.startsWith('business.') ? [{ label: t.guest, value: b.guestName }] : []),
    { label: t.service, value: b.serviceName },
    ...(b.staffName ? [{ label: t.staff, value: b.staffName }] : []),
    { label: t.when, value: whenText(m.lang, b.time, b.timezone) },
    ...(m.kind === 'booking.reschedule_proposed' && b.proposed
      ? [{ label: t.proposedWhen, value: whenText(m.lang, b.proposed, b.timezone) }]
      : []),
    { label: t.where, value: [b.locationName, b.address].filter(Boolean).join(', ') },
    { label: t.reference, value: b.publicReference },
  ];
  const links = [
    ...(m.manageUrl ? [{ label: m.kind === 'booking.reschedule_proposed' ? t.answer : t.manage, url: m.manageUrl }] : []),
    ...(m.dashboardUrl ? [{ label: t.dashboard, url: m.dashboardUrl }] : []),
  ];
  // The subject names the time the message is about: the proposal's, when one is proposed.
  const shown = m.kind === 'booking.reschedule_proposed' && b.proposed ? b.proposed : b.time;
  return {
    lang: m.lang,
    subject: `${m.businessName}: ${t.title[m.kind]} – ${formatDate(m.lang, shown.date, 'long')} ${shown.startTime} (${b.timezone})`,
    title: t.title[m.kind],
    when: whenText(m.lang, shown, b.timezone),
    intro: t.intro[m.kind](m.businessName),
    details,
    links,
    note: null,
    footer: t.footer(m.businessName),
    sender: m.businessName,
  };
}

/** The text part: the same words as the HTML part, one per line. */
export function mailText(c: MailContent): string {
  const lines = [c.title, '', c.intro, ''];
  for (const d of c.details) lines.push(`${d.label}: ${d.value}`);
  if (c.note) lines.push('', c.note);
  for (const l of c.links) lines.push('', `${l.label}:`, l.url);
  lines.push('', '--', c.footer);
  return `${lines.join('\n')}\n`;
}

/** An SMS: the title, the time and the first link, short enough for a message or two. */
export function smsText(c: MailContent): string {
  return [`${c.sender}: ${c.title}`, c.when, c.links[0]?.url].filter(Boolean).join('\n');
}
