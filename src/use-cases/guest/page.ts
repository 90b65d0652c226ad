import { satisfiesPriceRule } from '../../domain/catalog.ts';
import { byNameThenId } from '../../domain/catalog-view.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import type { GuestSettings } from '../../domain/guest-settings/settings.ts';
import { effectiveFeatures, type SubscriptionStatus } from '../../domain/plans.ts';
import { findBusinessBySlug } from '../../store/businesses.ts';
import type { Queryable } from '../../store/db.ts';
import { listLocations } from '../../store/locations.ts';
import { listListedServices } from '../../store/services.ts';
import { listStaffForService } from '../../store/staff.ts';
import { getSubscription } from '../../store/subscriptions.ts';
import { readGuestSettings } from '../guest-settings.ts';

/** A business as its booking page needs it, found by slug without an API key. */
export interface BookingPage {
  business: { id: string; slug: string; name: string; currency: string };
  settings: GuestSettings;
  /** the plan (with overrides) has bookingPageBranding: accent colour and logo apply */
  branding: boolean;
  /** the locations that take bookings, by public name */
  locations: LocationRecord[];
}

/** A subscription in these states takes bookings; any other keeps its page closed (a 404 page). */
const LIVE: ReadonlySet<SubscriptionStatus> = new Set(['active', 'trialing', 'past_due']);

/**
 * The business behind `/book/{salonSlug}`, or undefined when the page answers 404: no such
 * business, its page turned off (`bookingPage.enabled` false), or its subscription not live.
 */
export async function openBookingPage(q: Queryable, salonSlug: string): Promise<BookingPage | undefined> {
  const business = await findBusinessBySlug(q, salonSlug);
  if (!business) return undefined;
  const [subscription, settings, locations] = await Promise.all([
    getSubscription(q, business.id),
    readGuestSettings(q, business.id),
    listLocations(q, business.id),
  ]);
  if (!subscription || !LIVE.has(subscription.status) || !settings.bookingPage.enabled) return undefined;
  const features = effectiveFeatures(subscription.plan, subscription.featureOverrides);
  return {
    business: { id: business.id, slug: business.slug, name: business.name, currency: business.currency },
    settings,
    branding: features.bookingPageBranding,
    locations: locations
      .filter((l) => l.bookingEnabled)
      .sort((a, b) => a.publicLocationName.localeCompare(b.publicLocationName) || a.id.localeCompare(b.id)),
  };
}

/** The page's location by slug; undefined for an unknown one or one that takes no bookings. */
export function pageLocation(page: BookingPage, locationSlug: string): LocationRecord | undefined {
  return page.locations.find((l) => l.slug === locationSlug);
}

/**
 * Step 1: the location's active, online-bookable services, as GET /v1/services lists them (a
 * price the type needs but lacks keeps a service off the list), by name.
 */
export async function pageServices(q: Queryable, location: LocationRecord): Promise<ServiceRecord[]> {
  const services = await listListedServices(q, location.id);
  return services.filter((s) => satisfiesPriceRule(s.priceType, s.priceMinor)).sort(byNameThenId);
}

/** Step 2: the active staff of the location who perform the service, by name. */
export async function pageStaff(q: Queryable, location: LocationRecord, serviceId: string): Promise<Array<{ id: string; name: string }>> {
  return listStaffForService(q, location.id, serviceId);
}
