import { FEED_STATUSES, feedEvents } from '../../domain/calendar-feeds/events.ts';
import { feedEtag, renderFeed } from '../../domain/calendar-feeds/ics.ts';
import { feedTokenHash } from '../../domain/calendar-feeds/token.ts';
import { feedWindow } from '../../domain/calendar-feeds/window.ts';
import { findLiveCalendarFeed, listFeedBookings, listFeedTimeOff } from '../../store/calendar-feeds.ts';
import type { Db } from '../../store/db.ts';

export interface FeedBody {
  body: string;
  etag: string;
}

/**
 * GET /ical/{token}.ics: the feed a live token names, or undefined (unknown, ended). Built fresh on
 * every fetch (three short statements): a calendar asks at most every few minutes, and a cached
 * copy would have to learn of every booking change. The ETag is the body's hash, so an unchanged
 * feed costs the client no download (304), and any change, even a booking leaving the window, is
 * a new ETag.
 */
export async function readCalendarFeed(deps: { db: Db; publicBaseUrl: string; now: Date }, token: string): Promise<FeedBody | undefined> {
  const subject = await findLiveCalendarFeed(deps.db, feedTokenHash(token));
  if (!subject) return undefined;
  const window = feedWindow(deps.now, subject.horizonDays);
  const bookings = await listFeedBookings(deps.db, subject.scope, FEED_STATUSES, window.from, window.to);
  const timeOff = await listFeedTimeOff(deps.db, subject.scope, window.from, window.to);
  const events = feedEvents({ scope: subject.scope, window, bookings, timeOff });
  const body = renderFeed(
    { name: `${subject.name} – ${subject.businessName}`, timezone: subject.timezone, uidDomain: new URL(deps.publicBaseUrl).hostname },
    events,
  );
  return { body, etag: feedEtag(body) };
}
