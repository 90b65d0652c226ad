/**
 * The soak's world, set up through the operator API like a real deployment: businesses with one
 * location each, staff with working hours, one automatic and one manual service, API keys (owner
 * keys on the elevated tier for the busy integrators, a guest-partner key, a standard-tier key),
 * and a webhook pointing at the local receiver, configured through the public API.
 */
import { randomUUID } from 'node:crypto';
import { CAPABILITIES, GUEST_PARTNER_CAPABILITIES } from '../../src/domain/capabilities.ts';
import type { SoakClient } from './client.ts';
import type { WebhookReceiver } from './receiver.ts';

export interface SoakService {
  id: string;
  pricingVersion: string;
  policy: 'automatic' | 'manual';
}

export interface Salon {
  slug: string;
  locationSlug: string;
  services: SoakService[];
  staffIds: string[];
  /** owner keys, elevated tier, every capability */
  ownerKeys: string[];
  /** owner key on the standard tier */
  standardKey: string;
  /** guest_partner key: services, staff, availability, create */
  partnerKey: string;
  webhookConfigured: boolean;
}

export interface World {
  salons: Salon[];
  /** why the webhook part could not be set up, if it could not */
  webhookMissing: string | undefined;
}

// Long days, every day: plenty of slots for a two-minute run that books thousands.
const WORKING_HOURS = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '07:00', end: '21:00' }));

export interface SetupOptions {
  runId: string;
  businesses: number;
  staffPerBusiness: number;
  ownerKeysPerBusiness: number;
}

export async function setUpWorld(client: SoakClient, adminToken: string, receiver: WebhookReceiver, o: SetupOptions): Promise<World> {
  const admin = async (method: 'POST' | 'PUT', path: string, route: string, body: unknown): Promise<any> => {
    const r = await client.call({ method, path: `/admin/v1${path}`, route, token: adminToken, body, api: 0 });
    if (r.status >= 300) throw new Error(`setup: ${method} ${path} -> ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const key = async (slug: string, name: string, kind: string, capabilities: readonly string[], tier: string): Promise<string> => {
    const d = await admin('POST', `/businesses/${slug}/api-keys`, 'POST /admin/v1/businesses/:slug/api-keys', {
      name,
      type: 'integration',
      kind,
      capabilities,
      tier,
    });
    return d.apiKey.secret as string;
  };

  const salons: Salon[] = [];
  let webhookMissing: string | undefined;
  for (let b = 0; b < o.businesses; b++) {
    const slug = `soak-${o.runId}-${b}`;
    await admin('POST', '/businesses', 'POST /admin/v1/businesses', {
      slug,
      name: `Soak salon ${b}`,
      currency: 'HUF',
      subscription: { plan: 'business', status: 'active' },
    });
    const locationSlug = 'main';
    await admin('POST', `/businesses/${slug}/locations`, 'POST /admin/v1/businesses/:slug/locations', {
      slug: locationSlug,
      name: 'Main',
      timezone: 'Europe/Budapest',
      address: { city: 'Budapest', street: 'Soak utca 1.', zip: '1011' },
    });
    const services: SoakService[] = [];
    for (const [name, duration, policy] of [
      ['Haircut', 30, 'automatic'],
      ['Colouring', 45, 'manual'],
    ] as const) {
      const d = await admin('POST', `/businesses/${slug}/services`, 'POST /admin/v1/businesses/:slug/services', {
        locationSlug,
        name,
        durationMinutes: duration,
        priceType: 'fixed',
        price: { amount: 6000, currency: 'HUF' },
        requestAcceptancePolicy: policy,
      });
      services.push({ id: d.service.id, pricingVersion: d.service.pricingVersion, policy });
    }
    const staffIds: string[] = [];
    for (let s = 0; s < o.staffPerBusiness; s++) {
      const d = await admin('POST', `/businesses/${slug}/staff`, 'POST /admin/v1/businesses/:slug/staff', {
        locationSlug,
        name: `Staff ${s}`,
        serviceIds: services.map((x) => x.id),
        workingHours: WORKING_HOURS,
      });
      staffIds.push(d.staff.id);
    }
    const ownerKeys: string[] = [];
    for (let k = 0; k < o.ownerKeysPerBusiness; k++) {
      ownerKeys.push(await key(slug, `integrator ${k}`, 'owner', CAPABILITIES, 'elevated'));
    }
    const standardKey = await key(slug, 'standard reader', 'owner', CAPABILITIES, 'standard');
    const partnerKey = await key(slug, 'partner', 'guest_partner', GUEST_PARTNER_CAPABILITIES, 'elevated');
    const salon: Salon = { slug, locationSlug, services, staffIds, ownerKeys, standardKey, partnerKey, webhookConfigured: false };

    // The webhook, through the public API as an integrator would configure it.
    if (webhookMissing === undefined) {
      const r = await client.call({
        method: 'PUT',
        path: `/v1/webhooks/config?salonSlug=${slug}`,
        route: 'PUT /v1/webhooks/config',
        token: ownerKeys[0]!,
        body: { url: receiver.url(slug) },
        headers: { 'idempotency-key': randomUUID() },
        api: 0,
      });
      const secret = r.body?.data?.webhook?.signingSecret ?? r.body?.data?.signingSecret;
      if (r.status === 404 && r.code === 'request.not_found') {
        webhookMissing = 'PUT /v1/webhooks/config missing';
      } else if (r.status !== 200 || typeof secret !== 'string') {
        throw new Error(`setup: PUT /v1/webhooks/config -> ${r.status} ${JSON.stringify(r.body)}`);
      } else {
        receiver.setSecret(slug, secret);
        salon.webhookConfigured = true;
      }
    }
    salons.push(salon);
  }
  return { salons, webhookMissing };
}
