import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import { CAPABILITIES } from '../../domain/capabilities.ts';
import { isAppError } from '../../domain/errors.ts';
import type { WorkingHoursEntry } from '../../domain/working-hours.ts';
import { newId } from '../../domain/ids.ts';
import { hashPassword } from '../../domain/members/password.ts';
import type { Db } from '../../store/db.ts';
import { addMembership } from '../../store/memberships.ts';
import { insertUser } from '../../store/users.ts';
import { createApiKey } from './api-keys.ts';
import { createBusiness } from './businesses.ts';
import { createLocation } from './locations.ts';
import { createService } from './services.ts';
import { createStaff } from './staff.ts';

export interface DemoSeed {
  salonSlug: string;
  locationSlug: string;
  apiKey: string;
  /** what the quick start (docs/integrator-guide.md) books: Haircut (automatic acceptance) with Anna */
  serviceId: string;
  staffId: string;
  /** the demo salon's owner account: sign in to the dashboard with it; the password is shown once */
  owner: { email: string; password: string };
}

const DEMO_SLUG = 'demo-salon';
const LOCATION_SLUG = 'downtown';
export const DEMO_OWNER_EMAIL = 'owner@demo.example';

const MON_TO_SAT = [1, 2, 3, 4, 5, 6];

function hours(intervals: Array<[string, string]>): WorkingHoursEntry[] {
  return MON_TO_SAT.flatMap((weekday) => intervals.map(([start, end]) => ({ weekday, start, end })));
}

/**
 * Only on an empty database, so restarts never add a second demo or print a new key. Goes through
 * the operator use cases, so the demo obeys every rule a real salon does.
 */
export async function seedDemoIfEmpty(db: Db, _config: Config): Promise<DemoSeed | undefined> {
  const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM businesses');
  if ((r.rows[0]?.n ?? 0) > 0) return undefined;
  let businessId: string;
  try {
    businessId = (
      await createBusiness(db, {
        slug: DEMO_SLUG,
        name: 'Demo Salon',
        currency: 'HUF',
        subscription: { plan: 'pro', status: 'active' },
      })
    ).id;
  } catch (err) {
    // Another instance seeding the same empty database got there first.
    if (isAppError(err) && err.code === 'request.validation_failed') return undefined;
    throw err;
  }
  await createLocation(db, DEMO_SLUG, {
    slug: LOCATION_SLUG,
    name: 'Downtown',
    publicLocationName: 'Demo Salon Downtown',
    timezone: 'Europe/Budapest',
    address: { city: 'Budapest', street: 'Váci utca 12.', zip: '1052' },
  });
  const service = (input: Omit<Parameters<typeof createService>[2], 'locationSlug'>) =>
    createService(db, DEMO_SLUG, { locationSlug: LOCATION_SLUG, ...input });
  const haircut = await service({
    name: 'Haircut',
    description: 'Wash, cut and blow-dry.',
    durationMinutes: 30,
    priceType: 'fixed',
    price: { amount: 8000, currency: 'HUF' },
    requestAcceptancePolicy: 'automatic',
  });
  const colouring = await service({
    name: 'Colouring',
    description: 'Full colour; the final price depends on hair length.',
    durationMinutes: 90,
    priceType: 'from',
    price: { amount: 18000, currency: 'HUF' },
    requestAcceptancePolicy: 'manual',
    bufferAfterMinutes: 15,
  });
  const consultation = await service({
    name: 'Consultation',
    durationMinutes: 20,
    priceType: 'negotiable',
    price: null,
    requestAcceptancePolicy: 'automatic',
  });
  const anna = await createStaff(db, DEMO_SLUG, {
    locationSlug: LOCATION_SLUG,
    name: 'Anna Kovács',
    bio: 'Senior stylist, colour specialist.',
    serviceIds: [haircut.id, colouring.id, consultation.id],
    workingHours: hours([
      ['09:00', '13:00'],
      ['13:30', '17:00'],
    ]),
  });
  await createStaff(db, DEMO_SLUG, {
    locationSlug: LOCATION_SLUG,
    name: 'Bence Nagy',
    serviceIds: [haircut.id, consultation.id],
    workingHours: hours([['10:00', '18:00']]),
  });
  const key = await createApiKey(
    db,
    DEMO_SLUG,
    { name: 'demo key', type: 'integration', kind: 'owner', capabilities: [...CAPABILITIES] },
    new Date(),
    'platform',
  );
  // 24 random base64url characters (144 bits); stored only as its hash, printed once by main.ts.
  const password = randomBytes(18).toString('base64url');
  const passwordHash = await hashPassword(password);
  const owner = await db.transaction(async (tx) => {
    const user = await insertUser(tx, { id: newId('usr'), email: DEMO_OWNER_EMAIL, name: 'Demo Owner', passwordHash });
    if (user === 'email_taken') throw new Error(`the demo owner ${DEMO_OWNER_EMAIL} exists already in a database without businesses`);
    await addMembership(tx, businessId, user.id, 'owner');
    return { email: DEMO_OWNER_EMAIL, password };
  });
  return { salonSlug: DEMO_SLUG, locationSlug: LOCATION_SLUG, apiKey: key.secret, serviceId: haircut.id, staffId: anna.id, owner };
}
