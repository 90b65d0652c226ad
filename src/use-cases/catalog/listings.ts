import { listedServices, listedStaff } from '../../domain/catalog-view.ts';
import type { Queryable } from '../../store/db.ts';
import { listListedServices } from '../../store/services.ts';
import { listActiveStaff } from '../../store/staff.ts';
import { resolveLocation } from '../scope.ts';
import type { ReadCaches } from '../../cache/read-caches.ts';

type Scope = { businessId: string; businessSlug: string };

/** The caches and the business version learnt before this request read anything (undefined: no cache). */
export interface CacheUse {
  caches: ReadCaches;
  version: number | undefined;
}

function answerId(kind: string, auth: Scope, salonSlug: string, locationSlug: string): string {
  return JSON.stringify([kind, auth.businessId, auth.businessSlug, salonSlug, locationSlug]);
}

/** GET /v1/services: the location's active, online-bookable services, as the API shows them. */
export async function listServices(q: Queryable, auth: Scope, salonSlug: string, locationSlug: string, cache?: CacheUse) {
  const read = async () => {
    const location = await resolveLocation(q, auth, salonSlug, locationSlug);
    return listedServices(await listListedServices(q, location.id));
  };
  if (!cache) return read();
  return cache.caches.answer(cache.version, answerId('services', auth, salonSlug, locationSlug), read);
}

/** GET /v1/staff: the location's active staff members, as the API shows them. */
export async function listStaff(q: Queryable, auth: Scope, salonSlug: string, locationSlug: string, cache?: CacheUse) {
  const read = async () => {
    const location = await resolveLocation(q, auth, salonSlug, locationSlug);
    return listedStaff(await listActiveStaff(q, location.id));
  };
  if (!cache) return read();
  return cache.caches.answer(cache.version, answerId('staff', auth, salonSlug, locationSlug), read);
}
