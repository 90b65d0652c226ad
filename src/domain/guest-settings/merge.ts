import { defaultGuestSettings, type GuestSettings, type GuestSettingsPatch } from './settings.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A patch over a base (docs/guest-settings.md "How a PATCH merges"): an object merges field by field,
 * at every depth; anything else (a scalar, an array, `null`) replaces what was there. A field the
 * patch leaves out is kept. Neither argument is changed.
 */
export function mergePatch<T>(base: T, patch: unknown): T {
  if (!isObject(patch) || !isObject(base)) return structuredClone(patch) as T;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    out[key] = key in out ? mergePatch(out[key], value) : structuredClone(value);
  }
  return out as T;
}

/** What a business has: the defaults with what it stored on top. */
export function effectiveSettings(stored: GuestSettingsPatch | undefined): GuestSettings {
  return stored === undefined ? defaultGuestSettings() : mergePatch(defaultGuestSettings(), stored);
}
