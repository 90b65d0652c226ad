import type { MessageKind } from '../../domain/messages/kinds.ts';
import type { Lang } from '../i18n/index.ts';

/** The words of the guest and business messages, per language (typed: a missing string fails to compile). */
export interface MailMessages {
  title: Record<MessageKind, string>;
  intro: Record<MessageKind, (business: string) => string>;
  service: string;
  staff: string;
  when: string;
  proposedWhen: string;
  where: string;
  reference: string;
  manage: string;
  /** the manage link's label when it answers a proposed time */
  answer: string;
  claim: string;
  withdraw: string;
  heldUntil: (when: string) => string;
  dashboard: string;
  guest: string;
  footer: (business: string) => string;
}

const en: MailMessages = {
  title: {
    'booking.received': 'Booking request received',
    'booking.confirmed': 'Booking confirmed',
    'booking.declined': 'Booking request declined',
    'booking.cancelled': 'Booking cancelled',
    'booking.rescheduled': 'Booking moved to a new time',
    'booking.reschedule_proposed': 'A new time is proposed',
    'booking.reminder': 'Reminder of your appointment',
    'waitlist.offer': 'A time you waited for is free',
    'business.new_request': 'New booking request',
    'business.guest_cancelled': 'A guest cancelled',
  },
  intro: {
    'booking.received': (b) => `We have received your booking request. ${b} will confirm it soon.`,
    'booking.confirmed': (b) => `Your booking at ${b} is confirmed.`,
    'booking.declined': (b) => `Sorry, ${b} could not accept your booking request.`,
    'booking.cancelled': (b) => `Your booking at ${b} is cancelled.`,
    'booking.rescheduled': (b) => `Your booking at ${b} has a new time.`,
    'booking.reschedule_proposed': (b) => `${b} proposes a new time for your booking. Open the link below to accept or decline it.`,
    'booking.reminder': (b) => `A reminder of your appointment at ${b}.`,
    'waitlist.offer': (b) => `A time you were waiting for at ${b} is free. Book it with the link below.`,
    'business.new_request': () => 'A guest asked for a booking. Accept, decline or propose another time in the dashboard.',
    'business.guest_cancelled': () => 'A guest cancelled their booking on the manage page.',
  },
  service: 'Service',
  staff: 'With',
  when: 'When',
  proposedWhen: 'Proposed new time',
  where: 'Where',
  reference: 'Reference',
  manage: 'Manage your booking (cancel or change it)',
  answer: 'Accept or decline the new time',
  claim: 'Book this time',
  withdraw: 'Leave the waiting list',
  heldUntil: (when) => `Held for you until ${when}.`,
  dashboard: 'Open the dashboard',
  guest: 'Guest',
  footer: (b) => `This message was sent on behalf of ${b}.`,
};

const hu: MailMessages = {
  title: {
    'booking.received': 'Foglalási kérését megkaptuk',
    'booking.confirmed': 'Foglalás visszaigazolva',
    'booking.declined': 'Foglalási kérés elutasítva',
    'booking.cancelled': 'Foglalás lemondva',
    'booking.rescheduled': 'A foglalás új időpontra került',
    'booking.reschedule_proposed': 'Új időpont javaslat',
    'booking.reminder': 'Emlékeztető az időpontjáról',
    'waitlist.offer': 'Felszabadult egy időpont, amelyre várt',
    'business.new_request': 'Új foglalási kérés',
    'business.guest_cancelled': 'Egy vendég lemondta a foglalását',
  },
  intro: {
    'booking.received': (b) => `Megkaptuk foglalási kérését. ${b} hamarosan visszaigazolja.`,
    'booking.confirmed': (b) => `Foglalása (${b}) visszaigazolva.`,
    'booking.declined': (b) => `Sajnáljuk, ${b} nem tudta elfogadni a foglalási kérését.`,
    'booking.cancelled': (b) => `Foglalása (${b}) le lett mondva.`,
    'booking.rescheduled': (b) => `Foglalása (${b}) új időpontra került.`,
    'booking.reschedule_proposed': (b) => `${b} új időpontot javasol foglalásához. Az alábbi linken elfogadhatja vagy elutasíthatja.`,
    'booking.reminder': (b) => `Emlékeztetjük közelgő időpontjára (${b}).`,
    'waitlist.offer': (b) => `Felszabadult egy időpont, amelyre várt (${b}). Az alábbi linken lefoglalhatja.`,
    'business.new_request': () => 'Egy vendég foglalást kért. A vezérlőpulton elfogadhatja, elutasíthatja vagy más időpontot javasolhat.',
    'business.guest_cancelled': () => 'Egy vendég a kezelőoldalon lemondta a foglalását.',
  },
  service: 'Szolgáltatás',
  staff: 'Munkatárs',
  when: 'Időpont',
  proposedWhen: 'Javasolt új időpont',
  where: 'Helyszín',
  reference: 'Azonosító',
  manage: 'Foglalás kezelése (lemondás vagy módosítás)',
  answer: 'Az új időpont elfogadása vagy elutasítása',
  claim: 'Időpont lefoglalása',
  withdraw: 'Kilépés a várólistáról',
  heldUntil: (when) => `Eddig tartjuk fenn Önnek: ${when}.`,
  dashboard: 'Vezérlőpult megnyitása',
  guest: 'Vendég',
  footer: (b) => `Ezt az üzenetet ${b} nevében küldtük.`,
};

const CATALOGS: Record<Lang, MailMessages> = { en, hu };

export function mailMessages(lang: Lang): MailMessages {
  return CATALOGS[lang];
}
