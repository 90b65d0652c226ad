import type { ReadCaches } from '../../cache/read-caches.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { isLinkTokenShape, linkTokenHash } from '../../domain/guest-links.ts';
import type { WaitlistEntry, WaitlistOffer } from '../../domain/waitlist/entry.ts';
import { findBusinessById } from '../../store/businesses.ts';
import type { Db } from '../../store/db.ts';
import { findHold } from '../../store/holds.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import { findOfferByClaimHash, lockOffer } from '../../store/waitlist.ts';
import { type BookingPage, openBookingPage, pageServices } from '../guest/page.ts';
import { markClaimed } from './pass.ts';

/** What the claim page shows and books: the offer, its entry, and the booking page it books through. */
export interface ClaimContext {
  offer: WaitlistOffer;
  entry: WaitlistEntry;
  /** open and its hold not yet ended, by the database's clock */
  claimable: boolean;
  page: BookingPage;
  location: LocationRecord;
  service: ServiceRecord;
  staffName: string;
}

/**
 * The offer behind a claim link, with what booking it needs; undefined when the token names none,
 * or the business's page is closed (a claim books as the page would, so it needs the page).
 */
export async function claimContext(db: Db, token: string, caches?: ReadCaches): Promise<ClaimContext | undefined> {
  if (!isLinkTokenShape(token)) return undefined;
  const found = await findOfferByClaimHash(db, linkTokenHash(token));
  if (!found) return undefined;
  const business = await findBusinessById(db, found.offer.businessId);
  const page = business ? await openBookingPage(db, business.slug, caches) : undefined;
  const location = page?.locations.find((l) => l.id === found.entry.locationId);
  if (!page || !location) return undefined;
  const service = (await pageServices(db, page, location)).find((s) => s.id === found.entry.serviceId);
  if (!service) return undefined;
  const hold = await findHold(db, found.offer.businessId, found.offer.holdId);
  return {
    offer: found.offer,
    entry: found.entry,
    claimable: found.offer.status === 'open' && found.live && hold?.status === 'active',
    page,
    location,
    service,
    staffName: hold?.staffName ?? '',
  };
}

/** The booking made through the claim link: the offer `claimed`, the entry `booked` (once; repeated: nothing). */
export async function finishClaim(db: Db, offerId: string, bookingId: string): Promise<void> {
  await transactionWithRetry(db, async (tx) => {
    const locked = await lockOffer(tx, offerId);
    if (locked && locked.offer.status === 'open') await markClaimed(tx, locked.offer, bookingId);
  });
}
