import { CAPABILITIES } from '../../src/domain/capabilities.ts';
import type { App } from '../../src/http/context.ts';
import { adminOk, call } from './harness.ts';
import { randomUUID } from 'node:crypto';

let counter = 0;

/** Unique across test files and runs sharing one PostgreSQL database, so tests never clean up. */
export function uniqueSlug(prefix = 'salon'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

export interface BusinessFixture {
  id: string;
  slug: string;
}

export async function createBusiness(
  app: App,
  subscription: Record<string, unknown> = { plan: 'pro', status: 'active' },
  currency = 'HUF',
): Promise<BusinessFixture> {
  const slug = uniqueSlug();
  const data = await adminOk(app, 'POST', '/businesses', { slug, name: `Salon ${slug}`, currency, subscription });
  return { id: data.business.id, slug };
}

export interface KeyFixture {
  id: string;
  secret: string;
}

export async function createKey(
  app: App,
  businessSlug: string,
  opts: Partial<{ kind: string; type: string; capabilities: string[]; tier: string; expiresAt: string; userId: string }> = {},
): Promise<KeyFixture> {
  const data = await adminOk(app, 'POST', `/businesses/${businessSlug}/api-keys`, {
    name: 'test key',
    type: opts.type ?? 'integration',
    kind: opts.kind ?? 'owner',
    capabilities: opts.capabilities ?? [...CAPABILITIES],
    ...(opts.tier ? { tier: opts.tier } : {}),
    ...(opts.expiresAt ? { expiresAt: opts.expiresAt } : {}),
    ...(opts.userId ? { userId: opts.userId } : {}),
  });
  return { id: data.apiKey.id, secret: data.apiKey.secret };
}

/** A public API call with a key; writes get a fresh Idempotency-Key unless one is given. */
export function api<T = any>(
  app: App,
  key: string | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  const h: Record<string, string> = { ...headers };
  if (key !== undefined) h.authorization = `Bearer ${key}`;
  if (method !== 'GET' && !('idempotency-key' in h)) h['idempotency-key'] = randomUUID();
  return call<T>(app, {
    method,
    url: `/v1${url}`,
    headers: h,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

export interface LocationFixture {
  id: string;
  slug: string;
  timezone: string;
}

export async function createLocation(app: App, businessSlug: string, overrides: Record<string, unknown> = {}): Promise<LocationFixture> {
  const data = await adminOk(app, 'POST', `/businesses/${businessSlug}/locations`, {
    slug: uniqueSlug('loc'),
    name: 'Downtown',
    timezone: 'Europe/Budapest',
    address: { city: 'Budapest', street: 'Váci utca 1.', zip: '1052' },
    ...overrides,
  });
  return { id: data.location.id, slug: data.location.slug, timezone: data.location.timezone };
}

/** The operator's service view: id, pricingVersion, price, deposit, ... */
export type ServiceFixture = { id: string; pricingVersion: string } & Record<string, any>;

/** A fixed-price, automatically accepted 30-minute service unless overridden; price in `currency`. */
export async function createService(
  app: App,
  businessSlug: string,
  locationSlug: string,
  overrides: Record<string, unknown> = {},
  currency = 'HUF',
): Promise<ServiceFixture> {
  const data = await adminOk(app, 'POST', `/businesses/${businessSlug}/services`, {
    locationSlug,
    name: 'Haircut',
    durationMinutes: 30,
    priceType: 'fixed',
    price: { amount: currency === 'HUF' ? 5000 : 50, currency },
    requestAcceptancePolicy: 'automatic',
    ...overrides,
  });
  return data.service;
}

/** Every day 09:00-17:00, the default of createStaff. */
export const EVERY_DAY_9_TO_17 = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '09:00', end: '17:00' }));

export type StaffFixture = { id: string; name: string } & Record<string, any>;

export async function createStaff(
  app: App,
  businessSlug: string,
  locationSlug: string,
  overrides: Record<string, unknown> = {},
): Promise<StaffFixture> {
  const data = await adminOk(app, 'POST', `/businesses/${businessSlug}/staff`, {
    locationSlug,
    name: 'Anna',
    serviceIds: [],
    workingHours: EVERY_DAY_9_TO_17,
    ...overrides,
  });
  return data.staff;
}

export interface SalonFixture {
  business: BusinessFixture;
  location: LocationFixture;
  /** fixed price, 30 minutes, automatic acceptance */
  service: ServiceFixture;
  /** `from` price, 60 minutes, manual acceptance */
  manualService: ServiceFixture;
  /** two staff members performing both services, every day 09:00-17:00 */
  staff: StaffFixture[];
  /** owner key with every capability */
  key: KeyFixture;
}

/** A ready salon: business, one location, two services, two staff with working hours, and a key. */
export async function createSalon(
  app: App,
  opts: { subscription?: Record<string, unknown>; currency?: string; timezone?: string } = {},
): Promise<SalonFixture> {
  const currency = opts.currency ?? 'HUF';
  const business = await createBusiness(app, opts.subscription, currency);
  const location = await createLocation(app, business.slug, { timezone: opts.timezone ?? 'Europe/Budapest' });
  const service = await createService(app, business.slug, location.slug, {}, currency);
  const manualService = await createService(
    app,
    business.slug,
    location.slug,
    {
      name: 'Colouring',
      durationMinutes: 60,
      priceType: 'from',
      price: { amount: currency === 'HUF' ? 12000 : 120, currency },
      requestAcceptancePolicy: 'manual',
    },
    currency,
  );
  const serviceIds = [service.id, manualService.id];
  const staff = [
    await createStaff(app, business.slug, location.slug, { name: 'Anna', serviceIds }),
    await createStaff(app, business.slug, location.slug, { name: 'Bence', serviceIds }),
  ];
  const key = await createKey(app, business.slug);
  return { business, location, service, manualService, staff, key };
}
