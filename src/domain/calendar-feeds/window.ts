const DAY_MS = 86_400_000;

/** How far back a feed reaches: a stylist looks up last month's client, not last year's. */
export const FEED_PAST_DAYS = 30;

/**
 * The instants a feed covers: from 30 days ago to the end of the location's booking horizon (one
 * day past `horizonDays` from now, so the horizon's last local day is whole in any zone). Nothing
 * bookable lies beyond it, except a booking made before the horizon was shortened, which the
 * agenda still shows; the feed need not.
 */
export function feedWindow(now: Date, horizonDays: number): { from: Date; to: Date } {
  return { from: new Date(now.getTime() - FEED_PAST_DAYS * DAY_MS), to: new Date(now.getTime() + (horizonDays + 1) * DAY_MS) };
}
