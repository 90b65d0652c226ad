import { definePageWords } from '../../lib/i18n/page-words.ts';

const en = {
  title: 'Reports',
  docTitle: 'Reports · Bookings dashboard',
  allLocations: 'All locations',
  show: 'Show report',
  downloadCsv: 'Download CSV',
  loading: 'Loading the report…',
  bookings: 'Bookings',
  revenueBooked: 'Revenue booked',
  revenueCompleted: 'Revenue completed',
  utilisation: 'Utilisation',
  noShowRate: 'No-show rate',
  cancellationRate: 'Cancellation rate',
  lateCancellationRate: 'Late cancellation rate',
  newClients: 'New clients',
  returningClients: 'Returning clients',
  rebookingRate: 'Rebooking rate',
  byStatus: 'Bookings by status',
  utilisationByStaff: 'Utilisation by staff member',
  revenueByStaff: 'Revenue by staff member',
};

const hu: typeof en = {
  title: 'Kimutatások',
  docTitle: 'Kimutatások · Foglalási felület',
  allLocations: 'Minden helyszín',
  show: 'Kimutatás',
  downloadCsv: 'CSV letöltése',
  loading: 'A kimutatás betöltése…',
  bookings: 'Foglalások',
  revenueBooked: 'Lefoglalt bevétel',
  revenueCompleted: 'Teljesült bevétel',
  utilisation: 'Kihasználtság',
  noShowRate: 'Meg nem jelenések aránya',
  cancellationRate: 'Lemondások aránya',
  lateCancellationRate: 'Késői lemondások aránya',
  newClients: 'Új ügyfelek',
  returningClients: 'Visszatérő ügyfelek',
  rebookingRate: 'Újrafoglalási arány',
  byStatus: 'Foglalások állapot szerint',
  utilisationByStaff: 'Kihasználtság munkatársanként',
  revenueByStaff: 'Bevétel munkatársanként',
};

/** The Reports page's words, in its own chunk: no other page uses them (lib/i18n/page-words.ts). */
export const reportsWords = definePageWords(en, hu);
