import type { VersionBumpListener, VersionBumps } from './db.ts';

export type { VersionBumpListener, VersionBumps };

/**
 * The tables whose writes change cached answers: each has a version trigger (migrations 011, 012,
 * 014, 017, 024) that bumps its business's version (what auth and the catalogue read) or its occupancy
 * version (what availability reads). The one list of them: test/versioned-tables.test.ts compares
 * it with the database's triggers, so a table given a trigger and not listed here (or listed and
 * left without one) fails the tests, not a cache.
 */
export const VERSIONED_TABLES = {
  business: [
    'businesses',
    'subscriptions',
    'memberships',
    'api_keys',
    'locations',
    'services',
    'staff',
    'staff_services',
    'working_hours',
    'time_off',
    'guest_settings',
    'resources',
    'service_resources',
  ],
  occupancy: ['bookings', 'group_sessions', 'holds'],
} as const;

const VERSIONED_WRITE = new RegExp(
  `\\b(insert|update|delete)\\b[\\s\\S]*\\b(${[...VERSIONED_TABLES.business, ...VERSIONED_TABLES.occupancy].join('|')})\\b`,
  'i',
);

/**
 * The id under which business_versions (and Redis) keep the occupancy version of a business
 * (migration 012): a booking moves it, not the business's own version.
 */
export function occupancyVersionId(businessId: string): string {
  return `occ:${businessId}`;
}

/**
 * Whether a statement run outside a transaction may bump a business version: the adapters then run
 * it in a transaction of its own so the bump can be read before commit. The key lookup's
 * once-a-minute stamp (api-keys.ts) says so with the marker: its column has no trigger.
 */
export function mayBumpVersion(sql: string): boolean {
  return !sql.includes('/* unversioned */') && VERSIONED_WRITE.test(sql);
}

/**
 * What this transaction bumped, read just before commit in one round trip (simple protocol, two
 * statements): the deferred version triggers fire now (SET CONSTRAINTS ALL IMMEDIATE), then their
 * transaction-local record is read. The adapters run it and hand the value to parseBumps.
 */
export const READ_BUMPS_SQL = `SET CONSTRAINTS ALL IMMEDIATE; SELECT current_setting('booking.bumped', true) AS b`;

export function parseBumps(b: string | null | undefined): VersionBumps {
  const bumps = new Map<string, number>();
  for (const part of (b ?? '').split(' ')) {
    const i = part.lastIndexOf('=');
    if (i <= 0) continue;
    const id = part.slice(0, i);
    const v = Number(part.slice(i + 1));
    if (!(bumps.get(id)! >= v)) bumps.set(id, v);
  }
  return bumps;
}

/** Calls every listener with what a committed transaction bumped; after commit, before the caller goes on. */
export async function announceBumps(listeners: ReadonlySet<VersionBumpListener>, bumps: VersionBumps): Promise<void> {
  if (bumps.size === 0) return;
  for (const l of listeners) await l(bumps);
}
