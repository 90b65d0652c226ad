import type { FeedScope } from '../../domain/calendar-feeds/subject.ts';
import { feedUrl, newFeedToken } from '../../domain/calendar-feeds/token.ts';
import { newId } from '../../domain/ids.ts';
import { replaceCalendarFeed } from '../../store/calendar-feeds.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { requireBusiness } from '../operator/businesses.ts';
import { requireLocation } from '../operator/locations.ts';
import { requireStaff } from '../operator/staff.ts';

export interface IssuedFeed {
  feedUrl: string;
}

/**
 * Stores a new feed of the subject the lookup finds, ending its live one in the same transaction:
 * from the commit on, the old URL answers 404 and only the new one works. The token leaves in the
 * answer only; the database keeps its hash.
 */
async function issue(
  db: Db,
  publicBaseUrl: string,
  find: (tx: Queryable) => Promise<{ businessId: string; scope: FeedScope }>,
): Promise<IssuedFeed> {
  const { token, hash } = newFeedToken();
  await db.transaction(async (tx) => {
    const { businessId, scope } = await find(tx);
    await replaceCalendarFeed(tx, { id: newId('cal'), businessId, scope, tokenHash: hash });
  });
  return { feedUrl: feedUrl(publicBaseUrl, token) };
}

/** POST /admin/v1/staff/{staffId}/calendar-feed: the appointments of one staff member. */
export function issueStaffFeed(db: Db, publicBaseUrl: string, staffId: string): Promise<IssuedFeed> {
  return issue(db, publicBaseUrl, async (tx) => {
    const staff = await requireStaff(tx, staffId);
    return { businessId: staff.businessId, scope: { kind: 'staff', staffId: staff.id } };
  });
}

/** POST /admin/v1/businesses/{slug}/locations/{locationSlug}/calendar-feed: every appointment of a location. */
export function issueLocationFeed(db: Db, publicBaseUrl: string, slug: string, locationSlug: string): Promise<IssuedFeed> {
  return issue(db, publicBaseUrl, async (tx) => {
    const business = await requireBusiness(tx, slug);
    const location = await requireLocation(tx, business.id, locationSlug);
    return { businessId: business.id, scope: { kind: 'location', locationId: location.id } };
  });
}
