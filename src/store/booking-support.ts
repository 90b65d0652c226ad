import type { Queryable } from './db.ts';

export interface ServiceTiming {
  id: string;
  location_id: string;
  duration_minutes: number;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
}

export async function serviceTiming(q: Queryable, serviceId: string): Promise<ServiceTiming | undefined> {
  const r = await q.query<ServiceTiming>(
    'SELECT id, location_id, duration_minutes, buffer_before_minutes, buffer_after_minutes FROM services WHERE id = $1',
    [serviceId],
  );
  return r.rows[0];
}

/** A staff member of the location who performs the service, with the name bookings snapshot. */
export async function staffForService(
  q: Queryable,
  staffId: string,
  serviceId: string,
  locationId: string,
): Promise<{ id: string; name: string } | undefined> {
  const r = await q.query<{ id: string; name: string }>(
    `SELECT s.id, s.name FROM staff s JOIN staff_services ss ON ss.staff_id = s.id
      WHERE s.id = $1 AND ss.service_id = $2 AND s.location_id = $3 AND s.active`,
    [staffId, serviceId, locationId],
  );
  return r.rows[0];
}

export async function businessSlugOf(q: Queryable, businessId: string): Promise<string> {
  const r = await q.query<{ slug: string }>('SELECT slug FROM businesses WHERE id = $1', [businessId]);
  return r.rows[0]!.slug;
}

export async function locationIdBySlug(q: Queryable, businessId: string, slug: string): Promise<string | undefined> {
  const r = await q.query<{ id: string }>('SELECT id FROM locations WHERE business_id = $1 AND slug = $2', [
    businessId,
    slug,
  ]);
  return r.rows[0]?.id;
}
