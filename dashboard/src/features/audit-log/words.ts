import { definePageWords } from '../../lib/i18n/page-words.ts';

const en = {
  title: 'Audit log',
  docTitle: 'Audit log · Bookings dashboard',
  who: 'Who',
  anyone: 'Anyone',
  members: 'Members',
  operator: 'The platform operator',
  guests: 'Guests',
  what: 'What',
  whatHint: 'An action such as booking.cancel, or a kind of record such as booking.',
  loading: 'Loading the audit log…',
  none: 'Nothing recorded for these filters.',
  when: 'When',
  action: 'Action',
  record: 'Record',
  fields: 'Fields changed',
  guestOf: (booking: string) => `Guest of ${booking}`,
  platform: 'Platform operator',
};

const hu: typeof en = {
  title: 'Naplózás',
  docTitle: 'Naplózás · Foglalási felület',
  who: 'Ki',
  anyone: 'Bárki',
  members: 'Tagok',
  operator: 'A platform üzemeltetője',
  guests: 'Vendégek',
  what: 'Mit',
  whatHint: 'Egy művelet, például booking.cancel, vagy egy rekordfajta, például booking.',
  loading: 'A napló betöltése…',
  none: 'Ezekkel a szűrőkkel nincs bejegyzés.',
  when: 'Mikor',
  action: 'Művelet',
  record: 'Rekord',
  fields: 'Módosított mezők',
  guestOf: (booking: string) => `A(z) ${booking} vendége`,
  platform: 'Platform üzemeltető',
};

/** The Audit log page's words, in its own chunk: no other page uses them (lib/i18n/page-words.ts). */
export const auditLogWords = definePageWords(en, hu);
