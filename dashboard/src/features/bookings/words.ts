import { definePageWords } from '../../lib/i18n/page-words.ts';

const bookingMessagesEn = {
  title: 'Messages',
  loading: 'Loading the messages…',
  none: 'No message has been sent about this booking.',
  willResend: (kind: string, to: string) => `${kind} will be sent again to ${to}.`,
  failed: 'Could not send it again: ',
  older: 'Show older messages',
  to: 'To',
  attempts: 'Attempts',
  lastError: 'Last error',
  due: 'Due',
  planned: 'Planned for',
  sent: 'Sent',
  resendLabel: (kind: string, channel: string) => `Resend ${kind} by ${channel}`,
  resend: 'Resend',
  kinds: {
    'booking.received': 'Request received',
    'booking.confirmed': 'Booking confirmed',
    'booking.declined': 'Request declined',
    'booking.cancelled': 'Booking cancelled',
    'booking.rescheduled': 'Booking moved',
    'booking.reschedule_proposed': 'New time proposed',
    'booking.reminder': 'Reminder',
    'waitlist.offer': 'Waitlist offer',
    'business.new_request': 'New request (to the team)',
    'business.guest_cancelled': 'Guest cancelled (to the team)',
  },
  channels: { email: 'Email', sms: 'Text message' },
  statuses: {
    pending: 'Waiting to be sent',
    sent: 'Sent',
    failed: 'Not delivered',
    skipped: 'Not sent: no longer applied',
  },
};

const bookingMessagesHu: typeof bookingMessagesEn = {
  title: 'Üzenetek',
  loading: 'Az üzenetek betöltése…',
  none: 'Erről a foglalásról még nem ment ki üzenet.',
  willResend: (kind: string, to: string) => `Újra elküldjük: ${kind}, címzett: ${to}.`,
  failed: 'Nem sikerült újra elküldeni: ',
  older: 'Régebbi üzenetek',
  to: 'Címzett',
  attempts: 'Próbálkozások',
  lastError: 'Utolsó hiba',
  due: 'Esedékes',
  planned: 'Tervezett időpont',
  sent: 'Elküldve',
  resendLabel: (kind: string, channel: string) => `${kind} újraküldése (${channel})`,
  resend: 'Újraküldés',
  kinds: {
    'booking.received': 'Kérés beérkezett',
    'booking.confirmed': 'Foglalás megerősítve',
    'booking.declined': 'Kérés elutasítva',
    'booking.cancelled': 'Foglalás lemondva',
    'booking.rescheduled': 'Foglalás áthelyezve',
    'booking.reschedule_proposed': 'Új időpont javasolva',
    'booking.reminder': 'Emlékeztető',
    'waitlist.offer': 'Várólistás ajánlat',
    'business.new_request': 'Új kérés (a csapatnak)',
    'business.guest_cancelled': 'Vendég lemondott (a csapatnak)',
  },
  channels: { email: 'E-mail', sms: 'SMS' },
  statuses: {
    pending: 'Küldésre vár',
    sent: 'Elküldve',
    failed: 'Nem kézbesíthető',
    skipped: 'Nem ment ki: már nem volt érvényes',
  },
};

/** The words of a booking's messages (the booking detail page), in that page's chunk: no other page uses them (lib/i18n/page-words.ts). */
export const bookingMessagesWords = definePageWords(bookingMessagesEn, bookingMessagesHu);

const depositEn = {
  title: 'Deposit',
  status: 'Deposit status',
  amount: 'Amount',
  due: 'Due',
  recorded: 'Recorded',
  noAmount: 'amount not set',
  markPaid: 'Mark paid',
  waive: 'Waive',
  statuses: { pending: 'pending', paid: 'paid', waived: 'waived' },
};

const depositHu: typeof depositEn = {
  title: 'Előleg',
  status: 'Előleg állapota',
  amount: 'Összeg',
  due: 'Határidő',
  recorded: 'Rögzítve',
  noAmount: 'nincs megadva összeg',
  markPaid: 'Fizetettnek jelöl',
  waive: 'Elengedés',
  statuses: { pending: 'függőben', paid: 'kifizetve', waived: 'elengedve' },
};

/** The words of a booking's deposit (the booking detail page), in that page's chunk: no other page uses them (lib/i18n/page-words.ts). */
export const depositWords = definePageWords(depositEn, depositHu);

const requestsEn = {
  loading: 'Loading requests…',
  none: 'No request is waiting.',
  waitingList: 'Requests waiting',
  withStaff: (name: string) => `with ${name}`,
};

const requestsHu: typeof requestsEn = {
  loading: 'Kérések betöltése…',
  none: 'Nincs várakozó kérés.',
  waitingList: 'Várakozó kérések',
  withStaff: (name: string) => `${name} munkatárssal`,
};

/** The Requests page's words, loaded with it (with the booking detail's, this file's chunk): no other page uses them (lib/i18n/page-words.ts). */
export const requestsWords = definePageWords(requestsEn, requestsHu);
