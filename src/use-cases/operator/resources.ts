import type { ResourceRecord } from '../../domain/catalog-records.ts';
import { AppError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import type { Db, Queryable } from '../../store/db.ts';
import {
  findActiveResourceIdsAtLocation,
  findResourceById,
  insertResource,
  listResources as listResourceRecords,
  listServiceResourceIdsOf,
  updateResource,
  type ResourceFields,
  highestUnitInUse,
} from '../../store/resources.ts';
import { requireBusiness } from './businesses.ts';
import { requireLocation } from './locations.ts';

export interface ResourceInput {
  locationSlug: string;
  name: string;
  quantity: number;
}

export type ResourcePatch = Partial<ResourceFields>;

export interface ResourceView {
  id: string;
  locationSlug: string;
  name: string;
  quantity: number;
  active: boolean;
}

function resourceView(r: ResourceRecord): ResourceView {
  return { id: r.id, locationSlug: r.locationSlug, name: r.name, quantity: r.quantity, active: r.active };
}

async function requireResource(q: Queryable, resourceId: string): Promise<ResourceRecord> {
  const r = await findResourceById(q, resourceId);
  if (!r) throw new AppError('catalog.resource_not_found', `No resource with id "${resourceId}".`);
  return r;
}

export async function createResource(db: Db, businessSlug: string, input: ResourceInput): Promise<ResourceView> {
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, businessSlug);
    const location = await requireLocation(tx, b.id, input.locationSlug);
    const id = newId('res');
    await insertResource(tx, { id, businessId: b.id, locationId: location.id, name: input.name, quantity: input.quantity, active: true });
    return resourceView((await findResourceById(tx, id))!);
  });
}

/**
 * A lowered quantity must leave every unit that a booking or live hold still to end uses: 409
 * resource.in_use names the highest one. Checked under the resource's lock, the one every unit
 * assignment takes (migration 026), so no booking can take a higher unit meanwhile.
 */
export async function patchResource(db: Db, resourceId: string, patch: ResourcePatch): Promise<ResourceView> {
  return db.transaction(async (tx) => {
    const current = await requireResource(tx, resourceId);
    if (patch.quantity !== undefined && patch.quantity < current.quantity) {
      const highest = await highestUnitInUse(tx, current.id);
      if (highest > patch.quantity) {
        throw new AppError('resource.in_use', `Unit ${highest} of "${current.name}" is taken by a booking still to come.`, {
          unitInUse: highest,
        });
      }
    }
    await updateResource(tx, current.id, { name: patch.name, quantity: patch.quantity, active: patch.active });
    return resourceView((await findResourceById(tx, current.id))!);
  });
}

/** Every resource, inactive ones too, by name then id; `locationSlug` filters. */
export async function listResources(db: Db, businessSlug: string, locationSlug?: string): Promise<ResourceView[]> {
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, businessSlug);
    const location = locationSlug === undefined ? undefined : await requireLocation(tx, b.id, locationSlug);
    return (await listResourceRecords(tx, b.id, location?.id)).map(resourceView);
  });
}

/**
 * A service needs only active resources of its own location. One it already needs may stay listed
 * after it was made inactive, so an unrelated edit of the service does not have to drop it.
 */
export async function checkServiceResources(
  q: Queryable,
  service: { id?: string; locationId: string; locationSlug: string },
  ids: readonly string[],
): Promise<void> {
  const found = new Set(await findActiveResourceIdsAtLocation(q, service.locationId, ids));
  const kept = service.id === undefined ? [] : ((await listServiceResourceIdsOf(q, [service.id])).get(service.id) ?? []);
  const missing = ids.filter((id) => !found.has(id) && !kept.includes(id));
  if (missing.length > 0) {
    throw new AppError('catalog.resource_not_found', `Not active resources of location "${service.locationSlug}": ${missing.join(', ')}.`, {
      resourceIds: missing,
    });
  }
}
