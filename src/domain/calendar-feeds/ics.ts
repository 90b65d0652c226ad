import { createHash } from 'node:crypto';
import ical, { ICalCalendarMethod, ICalEventBusyStatus, ICalEventStatus, ICalEventTransparency } from 'ical-generator';
import type { FeedEvent } from './events.ts';

/**
 * How often a calendar should fetch again, and how long the answer may be kept (Cache-Control
 * max-age): five minutes. Apple Calendar honours REFRESH-INTERVAL / X-PUBLISHED-TTL; Google and
 * Outlook choose their own interval (hours), see docs/calendar-feeds.md.
 */
export const FEED_REFRESH_SECONDS = 300;

/**
 * The feed as RFC 5545 text. Times are UTC (`…Z`): valid without a VTIMEZONE block, and every
 * client shows them in the viewer's zone; X-WR-TIMEZONE names the location's zone for those that
 * read it. `uidDomain` (the public host) makes each UID globally unique and stable per booking.
 * Nothing here reads the clock, so the same events give the same bytes and the same ETag.
 */
export function renderFeed(cal: { name: string; timezone: string; uidDomain: string }, events: readonly FeedEvent[]): string {
  const calendar = ical({
    name: cal.name,
    prodId: { company: 'booking-api', product: 'calendar-feed', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    ttl: FEED_REFRESH_SECONDS,
    x: [['X-WR-TIMEZONE', cal.timezone]],
  });
  for (const e of events) {
    calendar.createEvent({
      id: `${e.uid}@${cal.uidDomain}`,
      start: e.start,
      end: e.end,
      summary: e.summary,
      description: e.description,
      status: e.status === 'TENTATIVE' ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
      sequence: e.sequence,
      stamp: e.stamp,
      lastModified: e.stamp,
      transparency: ICalEventTransparency.OPAQUE,
      busystatus: e.status === 'TENTATIVE' ? ICalEventBusyStatus.TENTATIVE : ICalEventBusyStatus.BUSY,
    });
  }
  // RFC 5545 ends every content line with CRLF, the last one too; the library leaves that one off.
  return `${calendar.toString()}\r\n`;
}

/** A strong validator of the exact body: any change to what a feed shows gives another. */
export function feedEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** Whether an If-None-Match header names this ETag (a list, weak forms and `*` included). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((v) => {
    const t = v.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}
