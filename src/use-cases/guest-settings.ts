import { effectiveSettings } from '../domain/guest-settings/merge.ts';
import type { GuestSettings } from '../domain/guest-settings/settings.ts';
import type { Queryable } from '../store/db.ts';
import { findStoredGuestSettings } from '../store/guest-settings.ts';

/**
 * A business's guest settings as they apply: every default, with what the business changed on top
 * (docs/guest-settings.md). What the booking page and holds read (through the caches, keyed by the
 * business version, which a change of the settings moves).
 */
export async function readGuestSettings(q: Queryable, businessId: string): Promise<GuestSettings> {
  return effectiveSettings(await findStoredGuestSettings(q, businessId));
}
