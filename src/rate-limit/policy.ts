import type { Tier } from '../domain/capabilities.ts';

/** The route groups a route declares in its `config.access` (spec "Limits"); each has its own limits. */
export type RateGroup = 'catalog' | 'availability' | 'booking' | 'webhook' | 'subscription';

/** The spec's rolling window ("Limits"): one minute, per API key and route group. */
export const WINDOW_MS = 60_000;

/**
 * Requests per rolling minute, per group and tier (booking-api-v1.md "Limits"). The values are not
 * contract ("the rate limit values" may change), the five groups and two tiers are.
 */
export const RATE_LIMITS: Readonly<Record<RateGroup, Readonly<Record<Tier, number>>>> = {
  catalog: { standard: 120, elevated: 600 },
  availability: { standard: 30, elevated: 150 },
  booking: { standard: 30, elevated: 150 },
  webhook: { standard: 10, elevated: 50 },
  subscription: { standard: 60, elevated: 300 },
};

export function limitFor(group: RateGroup, tier: Tier): number {
  return RATE_LIMITS[group][tier];
}

/** One counter per key and group; the store adds its own namespace in front. */
export function counterKey(keyId: string, group: RateGroup): string {
  return `${group}:${keyId}`;
}
