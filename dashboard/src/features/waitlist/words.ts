import { definePageWords } from '../../lib/i18n/page-words.ts';

const en = {
  docTitle: 'Waitlist · Bookings dashboard',
  title: 'Waitlist',
  filters: 'Filters',
  status: 'Status',
  any: 'Any',
  apply: 'Apply filters',
  loading: 'Loading the waitlist…',
  nobody: (filtered: boolean) => `Nobody is on the waitlist${filtered ? ' with this status' : ''}.`,
  guest: 'Guest',
  contact: 'Contact',
  service: 'Service',
  staff: 'Staff',
  dates: 'Dates',
  startBetween: 'Start between',
  anyStaff: 'Any staff',
  statuses: {
    waiting: 'waiting',
    offered: 'offered a time',
    booked: 'booked',
    withdrawn: 'withdrawn',
    expired: 'expired',
  },
};

const hu: typeof en = {
  docTitle: 'Várólista · Foglalási felület',
  title: 'Várólista',
  filters: 'Szűrők',
  status: 'Állapot',
  any: 'Bármely',
  apply: 'Szűrés',
  loading: 'A várólista betöltése…',
  nobody: (filtered: boolean) => `${filtered ? 'Ilyen állapotban senki' : 'Senki'} sincs a várólistán.`,
  guest: 'Vendég',
  contact: 'Elérhetőség',
  service: 'Szolgáltatás',
  staff: 'Munkatárs',
  dates: 'Dátumok',
  startBetween: 'Kezdés ekkor',
  anyStaff: 'Bárki',
  statuses: {
    waiting: 'vár',
    offered: 'időpontot ajánlottunk',
    booked: 'foglalt',
    withdrawn: 'visszalépett',
    expired: 'lejárt',
  },
};

/** The Waitlist page's words, in its own chunk: no other page uses them (lib/i18n/page-words.ts). */
export const waitlistWords = definePageWords(en, hu);
