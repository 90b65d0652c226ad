import { effectiveSettings, mergePatch } from '../../domain/guest-settings/merge.ts';
import { checkGuestSettingsPatch } from '../../domain/guest-settings/rules.ts';
import type { GuestSettings, GuestSettingsPatch } from '../../domain/guest-settings/settings.ts';
import { effectiveFeatures } from '../../domain/plans.ts';
import type { Db } from '../../store/db.ts';
import { lockStoredGuestSettings, writeStoredGuestSettings } from '../../store/guest-settings.ts';
import { getSubscription } from '../../store/subscriptions.ts';
import { readGuestSettings } from '../guest-settings.ts';
import { requireBusiness } from './businesses.ts';

/** GET /admin/v1/businesses/:slug/guest-settings: every field, defaults included. */
export async function getGuestSettings(db: Db, slug: string): Promise<GuestSettings> {
  return db.transaction(async (tx) => readGuestSettings(tx, (await requireBusiness(tx, slug)).id));
}

/**
 * PATCH /admin/v1/businesses/:slug/guest-settings: any subset, merged into what the business stored
 * (objects per field, arrays and null replace). The rules run on the patch before any lock; the
 * merge runs under the settings row's lock, so concurrent PATCHes of different fields all land.
 * Answers the whole effective settings.
 */
export async function patchGuestSettings(db: Db, slug: string, patch: GuestSettingsPatch): Promise<GuestSettings> {
  return db.transaction(async (tx) => {
    const business = await requireBusiness(tx, slug);
    const subscription = await getSubscription(tx, business.id);
    const features = effectiveFeatures(subscription?.plan ?? null, subscription?.featureOverrides ?? {});
    const checked = checkGuestSettingsPatch(patch, features);
    const stored = mergePatch(await lockStoredGuestSettings(tx, business.id), checked);
    await writeStoredGuestSettings(tx, business.id, stored);
    return effectiveSettings(stored);
  });
}
