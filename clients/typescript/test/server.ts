/**
 * A really started server (`src/main.ts`, embedded PGlite in memory) with one bookable salon, set
 * up through the operator API as an operator would, for the client's tests.
 */
import { CAPABILITIES } from '../../../src/domain/capabilities.ts';
import { type ServiceProcess, startApi } from '../../../test/helpers/api-process.ts';

const ADMIN_TOKEN = 'client-test-admin-token-0123456789';

export interface Salon {
  salonSlug: string;
  locationSlug: string;
  apiKey: string;
}

export async function startServer(name: string): Promise<ServiceProcess> {
  return startApi(name, {
    DATA_DIR: 'memory://',
    ADMIN_TOKEN,
    SEED_DEMO: 'false',
    // the receiver of the webhook tests listens on 127.0.0.1 over plain HTTP
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_DELAYS: '50ms-100ms,50ms-100ms',
  });
}

async function admin<T>(server: ServiceProcess, method: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.url}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
  return JSON.parse(text).data as T;
}

let counter = 0;

/** A business on the pro plan with one location, an automatically accepted service, a staff member and an owner key. */
export async function createSalon(server: ServiceProcess): Promise<Salon> {
  counter += 1;
  const salonSlug = `client-${process.pid}-${counter}`;
  const locationSlug = 'downtown';
  await admin(server, 'POST', '/businesses', {
    slug: salonSlug,
    name: `Salon ${salonSlug}`,
    currency: 'HUF',
    subscription: { plan: 'pro', status: 'active' },
  });
  await admin(server, 'POST', `/businesses/${salonSlug}/locations`, {
    slug: locationSlug,
    name: 'Downtown',
    timezone: 'Europe/Budapest',
    address: { city: 'Budapest', street: 'Váci utca 1.', zip: '1052' },
  });
  const { service } = await admin<{ service: { id: string } }>(server, 'POST', `/businesses/${salonSlug}/services`, {
    locationSlug,
    name: 'Haircut',
    durationMinutes: 30,
    priceType: 'fixed',
    price: { amount: 5000, currency: 'HUF' },
    requestAcceptancePolicy: 'automatic',
  });
  await admin(server, 'POST', `/businesses/${salonSlug}/staff`, {
    locationSlug,
    name: 'Anna',
    serviceIds: [service.id],
    workingHours: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '09:00', end: '17:00' })),
  });
  const { apiKey } = await admin<{ apiKey: { secret: string } }>(server, 'POST', `/businesses/${salonSlug}/api-keys`, {
    name: 'client tests',
    type: 'integration',
    kind: 'owner',
    capabilities: [...CAPABILITIES],
  });
  return { salonSlug, locationSlug, apiKey: apiKey.secret };
}

/** `n` days after today (UTC), as YYYY-MM-DD. */
export function daysFromNow(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
}
