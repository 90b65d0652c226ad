import foundation from './001-foundation.ts';
import bookings from './002-bookings.ts';
import groupSessionsHoldStaff from './003-group-sessions-hold-staff.ts';

/** Forward-only, in order; a migration's name never changes once released. */
export const MIGRATIONS: ReadonlyArray<{ name: string; sql: string }> = [
  { name: '001-foundation', sql: foundation },
  { name: '002-bookings', sql: bookings },
  { name: '003-group-sessions-hold-staff', sql: groupSessionsHoldStaff },
];
