import type { Config } from '../config.ts';
import { CAPABILITIES } from '../domain/capabilities.ts';
import type { Db } from '../store/db.ts';
import { createApiKey } from './api-keys.ts';
import { createBusiness } from './businesses.ts';

export interface DemoSeed {
  salonSlug: string;
  locationSlug: string;
  apiKey: string;
}

const DEMO_SLUG = 'demo-salon';

/** Only on an empty database, so restarts never add a second demo or print a new key. */
export async function seedDemoIfEmpty(db: Db, _config: Config): Promise<DemoSeed | undefined> {
  const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM businesses');
  if ((r.rows[0]?.n ?? 0) > 0) return undefined;
  await createBusiness(db, { slug: DEMO_SLUG, name: 'Demo Salon', currency: 'HUF', subscription: { plan: 'pro', status: 'active' } });
  const key = await createApiKey(
    db,
    DEMO_SLUG,
    { name: 'demo key', type: 'integration', kind: 'owner', capabilities: [...CAPABILITIES] },
    new Date(),
  );
  return { salonSlug: DEMO_SLUG, locationSlug: 'downtown', apiKey: key.secret };
}
