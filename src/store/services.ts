import type { AcceptancePolicy, BookingMode, PriceType } from '../domain/catalog.ts';
import type { LocationRecord, ServiceRecord, ServiceTiming } from '../domain/catalog-records.ts';
import type { Segment } from '../domain/scheduling/segments.ts';
import type { StaffVariant } from '../domain/scheduling/staff-variants.ts';
import type { Queryable } from './db.ts';
import { PREFIXED_LOCATION_COLUMNS, prefixedLocation } from './locations.ts';
import { setItems } from './update-set.ts';

interface ServiceRow {
  id: string;
  business_id: string;
  location_id: string;
  location_slug: string;
  currency: string;
  name: string;
  description: string | null;
  duration_minutes: number;
  price_type: PriceType;
  price_minor: number | null;
  request_acceptance_policy: AcceptancePolicy;
  online_bookable: boolean;
  active: boolean;
  on_site: boolean;
  booking_mode: BookingMode;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  segments: Segment[] | null;
  staff_variants: StaffVariant[];
  required_resource_ids: string[];
  deposit_required: boolean;
  deposit_terms_version: string | null;
  deposit_amount_minor: number | null;
  pricing_version: string;
  created_at: Date;
  updated_at: Date;
}

// Inactive resources are not needed: a basin taken out of use no longer limits anything.
const REQUIRED_RESOURCES = `ARRAY(SELECT sr.resource_id FROM service_resources sr JOIN resources rr ON rr.id = sr.resource_id AND rr.active
    WHERE sr.service_id = s.id ORDER BY sr.resource_id)`;

const COLUMNS = `s.id, s.business_id, s.location_id, l.slug AS location_slug, b.currency, s.name, s.description,
    s.duration_minutes, s.price_type, s.price_minor, s.request_acceptance_policy, s.online_bookable, s.active,
    s.on_site, s.booking_mode, s.buffer_before_minutes, s.buffer_after_minutes, s.segments, s.staff_variants, ${REQUIRED_RESOURCES} AS required_resource_ids, s.deposit_required,
    s.deposit_terms_version, s.deposit_amount_minor, s.pricing_version, s.created_at, s.updated_at`;

const SELECT = `SELECT ${COLUMNS}
  FROM services s
  JOIN locations l ON l.id = s.location_id
  JOIN businesses b ON b.id = s.business_id`;

function toService(r: ServiceRow): ServiceRecord {
  return {
    id: r.id,
    businessId: r.business_id,
    locationId: r.location_id,
    locationSlug: r.location_slug,
    currency: r.currency,
    name: r.name,
    description: r.description,
    durationMinutes: r.duration_minutes,
    priceType: r.price_type,
    priceMinor: r.price_minor,
    requestAcceptancePolicy: r.request_acceptance_policy,
    onlineBookable: r.online_bookable,
    active: r.active,
    onSite: r.on_site,
    bookingMode: r.booking_mode,
    bufferBeforeMinutes: r.buffer_before_minutes,
    bufferAfterMinutes: r.buffer_after_minutes,
    segments: r.segments,
    staffVariants: r.staff_variants,
    requiredResourceIds: r.required_resource_ids,
    depositRequired: r.deposit_required,
    depositTermsVersion: r.deposit_terms_version,
    depositAmountMinor: r.deposit_amount_minor,
    pricingVersion: r.pricing_version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** What a service's writes set: the record without its keys, joined columns and timestamps. */
export type ServiceFields = Omit<
  ServiceRecord,
  'id' | 'businessId' | 'locationId' | 'locationSlug' | 'currency' | 'createdAt' | 'updatedAt' | 'requiredResourceIds'
>;

const FIELD_COLUMNS: Record<keyof ServiceFields, string> = {
  name: 'name',
  description: 'description',
  durationMinutes: 'duration_minutes',
  priceType: 'price_type',
  priceMinor: 'price_minor',
  requestAcceptancePolicy: 'request_acceptance_policy',
  onlineBookable: 'online_bookable',
  active: 'active',
  onSite: 'on_site',
  bookingMode: 'booking_mode',
  bufferBeforeMinutes: 'buffer_before_minutes',
  bufferAfterMinutes: 'buffer_after_minutes',
  segments: 'segments',
  staffVariants: 'staff_variants',
  depositRequired: 'deposit_required',
  depositTermsVersion: 'deposit_terms_version',
  depositAmountMinor: 'deposit_amount_minor',
  pricingVersion: 'pricing_version',
};

/** jsonb columns take JSON text: both drivers would write a JavaScript array as a PostgreSQL array. */
function asColumns<F extends Partial<ServiceFields>>(f: F): F {
  const out: Record<string, unknown> = { ...f };
  if (f.segments !== undefined && f.segments !== null) out.segments = JSON.stringify(f.segments);
  if (f.staffVariants !== undefined) out.staffVariants = JSON.stringify(f.staffVariants);
  return out as F;
}

export async function insertService(
  q: Queryable,
  s: ServiceFields & { id: string; businessId: string; locationId: string },
): Promise<void> {
  const params: unknown[] = [s.id, s.businessId, s.locationId];
  const columns = Object.values(FIELD_COLUMNS);
  const values = asColumns(s);
  for (const key of Object.keys(FIELD_COLUMNS) as (keyof ServiceFields)[]) params.push(values[key]);
  await q.query(
    `INSERT INTO services (id, business_id, location_id, ${columns.join(', ')})
     VALUES (${params.map((_, i) => `$${i + 1}`).join(', ')})`,
    params,
  );
}

export async function updateService(q: Queryable, id: string, f: Partial<ServiceFields>): Promise<void> {
  const params: unknown[] = [id];
  const sets = setItems(asColumns(f), FIELD_COLUMNS, params);
  await q.query(`UPDATE services SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1`, params);
}

export async function findServiceById(q: Queryable, id: string): Promise<ServiceRecord | undefined> {
  const r = await q.query<ServiceRow>(`${SELECT} WHERE s.id = $1`, [id]);
  return r.rows[0] ? toService(r.rows[0]) : undefined;
}

/**
 * A location of the business by slug and, when it exists at that location, a service by id: the
 * two lookups of a booking create in one round trip.
 */
export async function findLocationWithService(
  q: Queryable,
  businessId: string,
  locationSlug: string,
  serviceId: string,
): Promise<{ location: LocationRecord; service: ServiceRecord | undefined } | undefined> {
  const r = await q.query<Record<string, unknown>>(
    `SELECT ${PREFIXED_LOCATION_COLUMNS}, ${COLUMNS}
       FROM locations l
       LEFT JOIN services s ON s.id = $3 AND s.location_id = l.id
       LEFT JOIN businesses b ON b.id = s.business_id
      WHERE l.business_id = $1 AND l.slug = $2`,
    [businessId, locationSlug, serviceId],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  const location = prefixedLocation(row);
  if (row.id === null) return { location, service: undefined };
  return { location, service: toService(row as unknown as ServiceRow) };
}

/** Candidates for the public listing; the caller still applies the price rule and the order. */
export async function listListedServices(q: Queryable, locationId: string): Promise<ServiceRecord[]> {
  const r = await q.query<ServiceRow>(`${SELECT} WHERE s.location_id = $1 AND s.active AND s.online_bookable`, [locationId]);
  return r.rows.map(toService);
}

/** Every service of the business, or of one of its locations; the caller orders them. */
export async function listServices(q: Queryable, businessId: string, locationId?: string): Promise<ServiceRecord[]> {
  const r =
    locationId === undefined
      ? await q.query<ServiceRow>(`${SELECT} WHERE s.business_id = $1`, [businessId])
      : await q.query<ServiceRow>(`${SELECT} WHERE s.business_id = $1 AND s.location_id = $2`, [businessId, locationId]);
  return r.rows.map(toService);
}

/** Which of `ids` are services of the location. */
export async function findServiceIdsAtLocation(q: Queryable, locationId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const r = await q.query<{ id: string }>('SELECT id FROM services WHERE location_id = $1 AND id = ANY($2::text[])', [locationId, ids]);
  return r.rows.map((row) => row.id);
}

export async function countActiveServices(q: Queryable, businessId: string): Promise<number> {
  const r = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM services WHERE business_id = $1 AND active', [businessId]);
  return r.rows[0]!.n;
}

/** Just what moving a booking needs, without the catalogue joins of findServiceById. */
export async function serviceTiming(q: Queryable, serviceId: string): Promise<ServiceTiming | undefined> {
  const r = await q.query<ServiceTiming>(
    `SELECT id, location_id AS "locationId", duration_minutes AS "durationMinutes",
            buffer_before_minutes AS "bufferBeforeMinutes", buffer_after_minutes AS "bufferAfterMinutes", segments, staff_variants AS "staffVariants",
            ${REQUIRED_RESOURCES} AS "requiredResourceIds"
       FROM services s WHERE id = $1`,
    [serviceId],
  );
  return r.rows[0];
}
