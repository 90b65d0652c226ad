import type { WorkingInterval } from '../domain/availability/types.ts';
import type { StaffRecord } from '../domain/catalog-records.ts';
import type { Queryable } from './db.ts';
import { setItems } from './update-set.ts';

interface StaffRow {
  id: string;
  business_id: string;
  location_id: string;
  location_slug: string;
  name: string;
  bio: string | null;
  avatar_url: string | null;
  active: boolean;
  position: number | null;
  created_at: Date;
  updated_at: Date;
}

const SELECT = `SELECT st.id, st.business_id, st.location_id, l.slug AS location_slug, st.name, st.bio, st.avatar_url,
    st.active, st.position, st.created_at, st.updated_at
  FROM staff st
  JOIN locations l ON l.id = st.location_id`;

function toStaff(r: StaffRow): StaffRecord {
  return {
    id: r.id,
    businessId: r.business_id,
    locationId: r.location_id,
    locationSlug: r.location_slug,
    name: r.name,
    bio: r.bio,
    avatarUrl: r.avatar_url,
    active: r.active,
    position: r.position,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** What a staff member's writes set. */
export type StaffFields = Pick<StaffRecord, 'name' | 'bio' | 'avatarUrl' | 'active' | 'position'>;

const FIELD_COLUMNS: Record<keyof StaffFields, string> = {
  name: 'name',
  bio: 'bio',
  avatarUrl: 'avatar_url',
  active: 'active',
  position: 'position',
};

export async function insertStaff(q: Queryable, s: StaffFields & { id: string; businessId: string; locationId: string }): Promise<void> {
  await q.query(
    `INSERT INTO staff (id, business_id, location_id, name, bio, avatar_url, active, position) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [s.id, s.businessId, s.locationId, s.name, s.bio, s.avatarUrl, s.active, s.position],
  );
}

export async function updateStaff(q: Queryable, id: string, f: Partial<StaffFields>): Promise<void> {
  const params: unknown[] = [id];
  const sets = setItems(f, FIELD_COLUMNS, params);
  await q.query(`UPDATE staff SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1`, params);
}

export async function findStaffById(q: Queryable, id: string): Promise<StaffRecord | undefined> {
  const r = await q.query<StaffRow>(`${SELECT} WHERE st.id = $1`, [id]);
  return r.rows[0] ? toStaff(r.rows[0]) : undefined;
}

/** Which of `ids` are staff members of the location, active or not. */
export async function findStaffIdsAtLocation(q: Queryable, locationId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const r = await q.query<{ id: string }>('SELECT id FROM staff WHERE location_id = $1 AND id = ANY($2::text[])', [locationId, ids]);
  return r.rows.map((row) => row.id);
}

/** The public listing's candidates; the caller orders them. */
export async function listActiveStaff(q: Queryable, locationId: string): Promise<StaffRecord[]> {
  const r = await q.query<StaffRow>(`${SELECT} WHERE st.location_id = $1 AND st.active`, [locationId]);
  return r.rows.map(toStaff);
}

/** Every staff member of the business, or of one of its locations, inactive ones too; the caller orders them. */
export async function listStaff(q: Queryable, businessId: string, locationId?: string): Promise<StaffRecord[]> {
  const r =
    locationId === undefined
      ? await q.query<StaffRow>(`${SELECT} WHERE st.business_id = $1`, [businessId])
      : await q.query<StaffRow>(`${SELECT} WHERE st.business_id = $1 AND st.location_id = $2`, [businessId, locationId]);
  return r.rows.map(toStaff);
}

export async function countActiveStaff(q: Queryable, businessId: string): Promise<number> {
  const r = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM staff WHERE business_id = $1 AND active', [businessId]);
  return r.rows[0]!.n;
}

export async function replaceWorkingHours(q: Queryable, staffId: string, hours: readonly WorkingInterval[]): Promise<void> {
  await q.query('DELETE FROM working_hours WHERE staff_id = $1', [staffId]);
  if (hours.length === 0) return;
  await q.query(
    `INSERT INTO working_hours (staff_id, weekday, start_minute, end_minute)
     SELECT $1, w, s, e FROM unnest($2::smallint[], $3::smallint[], $4::smallint[]) AS t(w, s, e)`,
    [staffId, hours.map((h) => h.weekday), hours.map((h) => h.startMinute), hours.map((h) => h.endMinute)],
  );
}

export async function listWorkingHours(q: Queryable, staffId: string): Promise<WorkingInterval[]> {
  const r = await q.query<WorkingInterval>(
    `SELECT weekday, start_minute AS "startMinute", end_minute AS "endMinute"
       FROM working_hours WHERE staff_id = $1 ORDER BY weekday, start_minute`,
    [staffId],
  );
  return r.rows;
}

export async function replaceStaffServices(q: Queryable, staffId: string, serviceIds: readonly string[]): Promise<void> {
  await q.query('DELETE FROM staff_services WHERE staff_id = $1', [staffId]);
  if (serviceIds.length === 0) return;
  await q.query('INSERT INTO staff_services (staff_id, service_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [
    staffId,
    serviceIds,
  ]);
}

export async function listStaffServiceIds(q: Queryable, staffId: string): Promise<string[]> {
  const r = await q.query<{ service_id: string }>('SELECT service_id FROM staff_services WHERE staff_id = $1 ORDER BY service_id', [
    staffId,
  ]);
  return r.rows.map((row) => row.service_id);
}

export async function staffPerformsService(q: Queryable, staffId: string, serviceId: string): Promise<boolean> {
  const r = await q.query('SELECT 1 FROM staff_services WHERE staff_id = $1 AND service_id = $2', [staffId, serviceId]);
  return r.rows.length > 0;
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

/** The working hours of many staff members in one query, by staff id. */
export async function listWorkingHoursOf(q: Queryable, staffIds: readonly string[]): Promise<Map<string, WorkingInterval[]>> {
  const byStaff = new Map<string, WorkingInterval[]>(staffIds.map((id) => [id, []]));
  if (staffIds.length === 0) return byStaff;
  const r = await q.query<WorkingInterval & { staffId: string }>(
    `SELECT staff_id AS "staffId", weekday, start_minute AS "startMinute", end_minute AS "endMinute"
       FROM working_hours WHERE staff_id = ANY($1::text[]) ORDER BY weekday, start_minute`,
    [staffIds],
  );
  for (const { staffId, ...w } of r.rows) byStaff.get(staffId)?.push(w);
  return byStaff;
}

/** The service ids of many staff members in one query, by staff id. */
export async function listStaffServiceIdsOf(q: Queryable, staffIds: readonly string[]): Promise<Map<string, string[]>> {
  const byStaff = new Map<string, string[]>(staffIds.map((id) => [id, []]));
  if (staffIds.length === 0) return byStaff;
  const r = await q.query<{ staff_id: string; service_id: string }>(
    'SELECT staff_id, service_id FROM staff_services WHERE staff_id = ANY($1::text[]) ORDER BY service_id',
    [staffIds],
  );
  for (const row of r.rows) byStaff.get(row.staff_id)?.push(row.service_id);
  return byStaff;
}

/** The active staff of a location who perform the service, in display order (the booking page's staff step). */
export async function listStaffForService(
  q: Queryable,
  locationId: string,
  serviceId: string,
): Promise<Array<{ id: string; name: string }>> {
  const r = await q.query<{ id: string; name: string }>(
    `SELECT s.id, s.name FROM staff s JOIN staff_services ss ON ss.staff_id = s.id
      WHERE s.location_id = $1 AND ss.service_id = $2 AND s.active
      ORDER BY s.position ASC NULLS LAST, s.name, s.id`,
    [locationId, serviceId],
  );
  return r.rows;
}
