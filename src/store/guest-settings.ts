import type { GuestSettingsPatch } from '../domain/guest-settings/settings.ts';
import type { Queryable } from './db.ts';

/**
 * What a business stored of its guest settings (only the fields it changed; undefined: no row, all
 * defaults). The effective settings are the use case's `readGuestSettings`, which merges the
 * defaults: this layer may not run domain code.
 */
export async function findStoredGuestSettings(q: Queryable, businessId: string): Promise<GuestSettingsPatch | undefined> {
  const r = await q.query<{ settings: GuestSettingsPatch }>('SELECT settings FROM guest_settings WHERE business_id = $1', [businessId]);
  return r.rows[0]?.settings;
}

/**
 * The stored settings, row-locked until the transaction ends, so two PATCHes of one business merge
 * one after the other and neither loses the other's fields. The row is made first when missing (an
 * absent row cannot be locked); an empty row means the same as none.
 */
export async function lockStoredGuestSettings(q: Queryable, businessId: string): Promise<GuestSettingsPatch> {
  await q.query('INSERT INTO guest_settings (business_id) VALUES ($1) ON CONFLICT (business_id) DO NOTHING', [businessId]);
  const r = await q.query<{ settings: GuestSettingsPatch }>('SELECT settings FROM guest_settings WHERE business_id = $1 FOR UPDATE', [
    businessId,
  ]);
  return r.rows[0]!.settings;
}

export async function writeStoredGuestSettings(q: Queryable, businessId: string, settings: GuestSettingsPatch): Promise<void> {
  await q.query('UPDATE guest_settings SET settings = $2::jsonb, updated_at = now() WHERE business_id = $1', [
    businessId,
    JSON.stringify(settings),
  ]);
}
