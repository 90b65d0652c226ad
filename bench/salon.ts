/**
 * The salon a bench books into, set up through the operator API of the app under test: one
 * location, one 30-minute fixed-price service, `staff` members working 09:00-17:00 every day, and
 * an elevated owner key with `capabilities`.
 */
import type { App } from '../src/http/context.ts';

export interface BenchSalon {
  tag: string;
  business: { id: string; slug: string };
  location: { slug: string };
  service: { id: string; pricingVersion: string };
  staffIds: string[];
  apiKey: { secret: string };
}

export async function createBenchSalon(
  app: App,
  o: {
    adminToken: string;
    tag: string;
    timezone: string;
    staff: number;
    acceptance: 'automatic' | 'manual';
    capabilities: string[];
  },
): Promise<BenchSalon> {
  async function adminOk(path: string, payload: unknown): Promise<any> {
    const r = await app.inject({
      method: 'POST',
      url: `/admin/v1${path}`,
      headers: { authorization: `Bearer ${o.adminToken}` },
      payload: payload as object,
    });
    if (r.statusCode >= 300) throw new Error(`POST ${path} -> ${r.statusCode} ${r.body}`);
    return JSON.parse(r.body).data;
  }
  const { tag } = o;
  const { business } = await adminOk('/businesses', {
    slug: tag,
    name: 'Bench salon',
    currency: 'HUF',
    subscription: { plan: 'business', status: 'active' },
  });
  const { location } = await adminOk(`/businesses/${tag}/locations`, {
    slug: 'main',
    name: 'Main',
    timezone: o.timezone,
    address: { city: 'Budapest', street: 'Váci utca 1.', zip: '1052' },
  });
  const { service } = await adminOk(`/businesses/${tag}/services`, {
    locationSlug: location.slug,
    name: 'Haircut',
    durationMinutes: 30,
    priceType: 'fixed',
    price: { amount: 5000, currency: 'HUF' },
    requestAcceptancePolicy: o.acceptance,
  });
  const workingHours = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '09:00', end: '17:00' }));
  const staffIds: string[] = [];
  for (let i = 0; i < o.staff; i++) {
    const { staff } = await adminOk(`/businesses/${tag}/staff`, {
      locationSlug: location.slug,
      name: `Staff ${i + 1}`,
      serviceIds: [service.id],
      workingHours,
    });
    staffIds.push(staff.id);
  }
  const { apiKey } = await adminOk(`/businesses/${tag}/api-keys`, {
    name: 'bench',
    type: 'integration',
    kind: 'owner',
    tier: 'elevated',
    capabilities: o.capabilities,
  });
  return { tag, business, location, service, staffIds, apiKey };
}
