import { listedServices, listedStaff } from '../../domain/catalog-view.ts';
import type { Queryable } from '../../store/db.ts';
import { listListedServices } from '../../store/services.ts';
import { listActiveStaff } from '../../store/staff.ts';
import { resolveLocation } from '../scope.ts';
import { catalogueRead, type CacheUse } from '../read-cache.ts';

type Scope = { businessId: string; businessSlug: string };

/** GET /v1/services: the location's active, online-bookable services, as the API shows them. */
export async function listServices(q: Queryable, auth: Scope, salonSlug: string, locationSlug: string, cache?: CacheUse) {
  const read = async () => {
    const location = await resolveLocation(q, auth, salonSlug, locationSlug);
    return listedServices(await listListedServices(q, location.id));
  };
  return catalogueRead(cache, ['services', auth.businessSlug, salonSlug, locationSlug], read);
}

/** GET /v1/staff: the location's active staff members, as the API shows them. */
export async function listStaff(q: Queryable, auth: Scope, salonSlug: string, locationSlug: string, cache?: CacheUse) {
  const read = async () => {
    const location = await resolveLocation(q, auth, salonSlug, locationSlug);
    return listedStaff(await listActiveStaff(q, location.id));
  };
  return catalogueRead(cache, ['staff', auth.businessSlug, salonSlug, locationSlug], read);
}
