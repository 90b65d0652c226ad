import { satisfiesPriceRule } from '../../domain/catalog.ts';
import { byNameThenId } from '../../domain/catalog-view.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import type { GuestSettings } from '../../domain/guest-settings/settings.ts';
import { effectiveFeatures, type SubscriptionStatus } from '../../domain/plans.ts';
import type { ReadCaches } from '../../cache/read-caches.ts';
import { findBusinessWithVersions } from '../../store/businesses.ts';
import type { Queryable } from '../../store/db.ts';
import { listLocations } from '../../store/locations.ts';
import { listListedServices } from '../../store/services.ts';
import { listStaffForService } from '../../store/staff.ts';
import { getSubscription } from '../../store/subscriptions.ts';
import { readGuestSettings } from '../guest-settings.ts';
import { type CacheUse, catalogueRead } from '../read-cache.ts';

/** A business as its booking page needs it, found by slug without an API key. */
export interface BookingPage {
  business: { id: string; slug: string; name: string; currency: string };
  settings: GuestSettings;
  /** the plan (with overrides) has bookingPageBranding: accent colour and logo apply */
  branding: boolean;
  /** the locations that take bookings, by public name */
  locations: LocationRecord[];
  /** the caches under the versions read with the business (undefined: none) */
  cache: CacheUse | undefined;
}

/** A subscription in these states takes bookings; any other keeps its page closed (a 404 page). */
const LIVE: ReadonlySet<SubscriptionStatus> = new Set(['active', 'trialing', 'past_due']);

/**
 * The business behind `/book/{salonSlug}`, or undefined when the page answers 404: no such
 * business, its page turned off (`bookingPage.enabled` false), or its subscription not live.
 */
export async function openBookingPage(q: Queryable, salonSlug: string, caches?: ReadCaches): Promise<BookingPage | undefined> {
  const business = await findBusinessWithVersions(q, salonSlug);
  if (!business) return undefined;
  // The versions were read in the business's snapshot, before anything below: an answer kept under
  // them is exact (docs/architecture.md "Caches and their invalidation"), as under a key's.
  const cache = caches ? { caches, businessId: business.id, version: business.version, occupancy: business.occupancy } : undefined;
  const open = await catalogueRead(cache, ['bookingPage'], async () => {
    const [subscription, settings, locations] = await Promise.all([
      getSubscription(q, business.id),
      readGuestSettings(q, business.id),
      listLocations(q, business.id),
    ]);
    if (!subscription || !LIVE.has(subscription.status) || !settings.bookingPage.enabled) return undefined;
    const features = effectiveFeatures(subscription.plan, subscription.featureOverrides);
    return {
      settings,
      branding: features.bookingPageBranding,
      locations: locations
        .filter((l) => l.bookingEnabled)
        .sort((a, b) => a.publicLocationName.localeCompare(b.publicLocationName) || a.id.localeCompare(b.id)),
    };
  });
  if (!open) return undefined;
  return { business: { id: business.id, slug: business.slug, name: business.name, currency: business.currency }, ...open, cache };
}

/** The page's location by slug; undefined for an unknown one or one that takes no bookings. */
export function pageLocation(page: BookingPage, locationSlug: string): LocationRecord | undefined {
  return page.locations.find((l) => l.slug === locationSlug);
}

/**
 * Step 1: the location's active, online-bookable services, as GET /v1/services lists them (a
 * price the type needs but lacks keeps a service off the list), by name.
 */
export async function pageServices(q: Queryable, page: BookingPage, location: LocationRecord): Promise<ServiceRecord[]> {
  return catalogueRead(page.cache, ['bookingPage.services', location.id], async () => {
    const services = await listListedServices(q, location.id);
    return services.filter((s) => satisfiesPriceRule(s.priceType, s.priceMinor)).sort(byNameThenId);
  });
}

/** Step 2: the active staff of the location who perform the service, by name. */
export async function pageStaff(
  q: Queryable,
  page: BookingPage,
  location: LocationRecord,
  serviceId: string,
): Promise<Array<{ id: string; name: string }>> {
  return catalogueRead(page.cache, ['bookingPage.staff', location.id, serviceId], () => listStaffForService(q, location.id, serviceId));
}
