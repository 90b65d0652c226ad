import type { ResourceRecord } from '../domain/catalog-records.ts';
import type { Queryable } from './db.ts';
import { setItems } from './update-set.ts';

interface ResourceRow {
  id: string;
  business_id: string;
  location_id: string;
  location_slug: string;
  name: string;
  quantity: number;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

const SELECT = `SELECT r.id, r.business_id, r.location_id, l.slug AS location_slug, r.name, r.quantity, r.active,
    r.created_at, r.updated_at
  FROM resources r
  JOIN locations l ON l.id = r.location_id`;

function toResource(r: ResourceRow): ResourceRecord {
  return {
    id: r.id,
    businessId: r.business_id,
    locationId: r.location_id,
    locationSlug: r.location_slug,
    name: r.name,
    quantity: r.quantity,
    active: r.active,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export type ResourceFields = Pick<ResourceRecord, 'name' | 'quantity' | 'active'>;

const FIELD_COLUMNS: Record<keyof ResourceFields, string> = { name: 'name', quantity: 'quantity', active: 'active' };

export async function insertResource(
  q: Queryable,
  r: ResourceFields & { id: string; businessId: string; locationId: string },
): Promise<void> {
  await q.query('INSERT INTO resources (id, business_id, location_id, name, quantity, active) VALUES ($1, $2, $3, $4, $5, $6)', [
    r.id,
    r.businessId,
    r.locationId,
    r.name,
    r.quantity,
    r.active,
  ]);
}

export async function updateResource(q: Queryable, id: string, f: Partial<ResourceFields>): Promise<void> {
  const params: unknown[] = [id];
  const sets = setItems(f, FIELD_COLUMNS, params);
  await q.query(`UPDATE resources SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1`, params);
}

export async function findResourceById(q: Queryable, id: string): Promise<ResourceRecord | undefined> {
  const r = await q.query<ResourceRow>(`${SELECT} WHERE r.id = $1`, [id]);
  return r.rows[0] ? toResource(r.rows[0]) : undefined;
}

/** Every resource of the business, or of one of its locations, by name then id (byte order). */
export async function listResources(q: Queryable, businessId: string, locationId?: string): Promise<ResourceRecord[]> {
  const order = 'ORDER BY r.name COLLATE "C", r.id COLLATE "C"';
  const r =
    locationId === undefined
      ? await q.query<ResourceRow>(`${SELECT} WHERE r.business_id = $1 ${order}`, [businessId])
      : await q.query<ResourceRow>(`${SELECT} WHERE r.business_id = $1 AND r.location_id = $2 ${order}`, [businessId, locationId]);
  return r.rows.map(toResource);
}

/** Which of `ids` are active resources of the location. */
export async function findActiveResourceIdsAtLocation(q: Queryable, locationId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const r = await q.query<{ id: string }>('SELECT id FROM resources WHERE location_id = $1 AND active AND id = ANY($2::text[])', [
    locationId,
    ids,
  ]);
  return r.rows.map((row) => row.id);
}

export async function replaceServiceResources(q: Queryable, serviceId: string, resourceIds: readonly string[]): Promise<void> {
  await q.query('DELETE FROM service_resources WHERE service_id = $1', [serviceId]);
  if (resourceIds.length === 0) return;
  await q.query('INSERT INTO service_resources (service_id, resource_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [
    serviceId,
    resourceIds,
  ]);
}

/** The resources each of `serviceIds` needs, sorted by id; every asked id is a key. */
export async function listServiceResourceIdsOf(q: Queryable, serviceIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(serviceIds.map((id) => [id, []]));
  if (serviceIds.length === 0) return out;
  const r = await q.query<{ service_id: string; resource_id: string }>(
    'SELECT service_id, resource_id FROM service_resources WHERE service_id = ANY($1::text[]) ORDER BY resource_id COLLATE "C"',
    [serviceIds],
  );
  for (const row of r.rows) out.get(row.service_id)?.push(row.resource_id);
  return out;
}

/**
 * The highest unit of the resource that a booking or live hold still to end occupies (0: none),
 * read under the resource's lock (migration 026) so that no assignment can change it before commit.
 */
export async function highestUnitInUse(q: Queryable, resourceId: string): Promise<number> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtextextended('resource:' || $1, 0))`, [resourceId]);
  const r = await q.query<{ unit: number | null }>(
    `SELECT max(o.unit)::int AS unit FROM occupancy o LEFT JOIN holds h ON h.id = o.hold_id
      WHERE o.resource_id = $1 AND upper(o.during) > now() AND (o.hold_id IS NULL OR h.expires_at > now())`,
    [resourceId],
  );
  return r.rows[0]?.unit ?? 0;
}
