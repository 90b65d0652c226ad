import type { StaffAssignment } from '../domain/bookings/staff-assignment.ts';
import type { LocationRecord } from '../domain/catalog-records.ts';
import type { Queryable } from './db.ts';
import { isUniqueViolation } from './db-errors.ts';
import { setItems } from './update-set.ts';

interface LocationRow {
  id: string;
  business_id: string;
  slug: string;
  name: string;
  public_location_name: string;
  timezone: string;
  city: string;
  street: string;
  zip: string;
  booking_enabled: boolean;
  slot_interval_minutes: number;
  min_notice_minutes: number;
  horizon_days: number;
  payment_instructions: string | null;
  phone: string | null;
  staff_assignment: StaffAssignment;
  created_at: Date;
  updated_at: Date;
}

const COLUMN_NAMES = [
  'id',
  'business_id',
  'slug',
  'name',
  'public_location_name',
  'timezone',
  'city',
  'street',
  'zip',
  'booking_enabled',
  'slot_interval_minutes',
  'min_notice_minutes',
  'horizon_days',
  'payment_instructions',
  'phone',
  'staff_assignment',
  'created_at',
  'updated_at',
] as const;
const COLUMNS = COLUMN_NAMES.join(', ');

/** The columns of table alias `l` under the names `loc_<column>`, for a query that joins more. */
export const PREFIXED_LOCATION_COLUMNS = COLUMN_NAMES.map((c) => `l.${c} AS loc_${c}`).join(', ');

function toLocation(r: LocationRow): LocationRecord {
  return {
    id: r.id,
    businessId: r.business_id,
    slug: r.slug,
    name: r.name,
    publicLocationName: r.public_location_name,
    timezone: r.timezone,
    city: r.city,
    street: r.street,
    zip: r.zip,
    bookingEnabled: r.booking_enabled,
    slotIntervalMinutes: r.slot_interval_minutes,
    minNoticeMinutes: r.min_notice_minutes,
    horizonDays: r.horizon_days,
    paymentInstructions: r.payment_instructions,
    phone: r.phone,
    staffAssignment: r.staff_assignment,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The location inside a row selected with PREFIXED_LOCATION_COLUMNS. */
export function prefixedLocation(row: Record<string, unknown>): LocationRecord {
  return toLocation(Object.fromEntries(COLUMN_NAMES.map((c) => [c, row[`loc_${c}`]])) as unknown as LocationRow);
}

/** What a location's writes set: the record without its keys and timestamps. */
export type LocationFields = Omit<LocationRecord, 'id' | 'businessId' | 'createdAt' | 'updatedAt'>;

const FIELD_COLUMNS: Record<keyof LocationFields, string> = {
  slug: 'slug',
  name: 'name',
  publicLocationName: 'public_location_name',
  timezone: 'timezone',
  city: 'city',
  street: 'street',
  zip: 'zip',
  bookingEnabled: 'booking_enabled',
  slotIntervalMinutes: 'slot_interval_minutes',
  minNoticeMinutes: 'min_notice_minutes',
  horizonDays: 'horizon_days',
  paymentInstructions: 'payment_instructions',
  phone: 'phone',
  staffAssignment: 'staff_assignment',
};

/** `slug_taken`, here and in updateLocation: another location of the business has the slug. */
export async function insertLocation(
  q: Queryable,
  l: LocationFields & { id: string; businessId: string },
): Promise<LocationRecord | 'slug_taken'> {
  const statement = q.query<LocationRow>(
    `INSERT INTO locations (id, business_id, slug, name, public_location_name, timezone, city, street, zip,
        booking_enabled, slot_interval_minutes, min_notice_minutes, horizon_days, payment_instructions, phone, staff_assignment)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
     RETURNING ${COLUMNS}`,
    [
      l.id,
      l.businessId,
      l.slug,
      l.name,
      l.publicLocationName,
      l.timezone,
      l.city,
      l.street,
      l.zip,
      l.bookingEnabled,
      l.slotIntervalMinutes,
      l.minNoticeMinutes,
      l.horizonDays,
      l.paymentInstructions,
      l.phone,
      l.staffAssignment,
    ],
  );
  return slugTakenOr(statement);
}

export async function updateLocation(q: Queryable, id: string, f: Partial<LocationFields>): Promise<LocationRecord | 'slug_taken'> {
  const params: unknown[] = [id];
  const sets = setItems(f, FIELD_COLUMNS, params);
  return slugTakenOr(
    q.query<LocationRow>(`UPDATE locations SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING ${COLUMNS}`, params),
  );
}

async function slugTakenOr(statement: Promise<{ rows: LocationRow[] }>): Promise<LocationRecord | 'slug_taken'> {
  try {
    return toLocation((await statement).rows[0]!);
  } catch (err) {
    if (isUniqueViolation(err)) return 'slug_taken';
    throw err;
  }
}

export async function findLocationBySlug(q: Queryable, businessId: string, slug: string): Promise<LocationRecord | undefined> {
  const r = await q.query<LocationRow>(`SELECT ${COLUMNS} FROM locations WHERE business_id = $1 AND slug = $2`, [businessId, slug]);
  return r.rows[0] ? toLocation(r.rows[0]) : undefined;
}

export async function findLocationById(q: Queryable, id: string): Promise<LocationRecord | undefined> {
  const r = await q.query<LocationRow>(`SELECT ${COLUMNS} FROM locations WHERE id = $1`, [id]);
  return r.rows[0] ? toLocation(r.rows[0]) : undefined;
}

export async function countLocations(q: Queryable, businessId: string): Promise<number> {
  const r = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM locations WHERE business_id = $1', [businessId]);
  return r.rows[0]!.n;
}

/** Every location of the business, booking-disabled ones too, by slug then id (byte order). */
export async function listLocations(q: Queryable, businessId: string): Promise<LocationRecord[]> {
  const r = await q.query<LocationRow>(
    `SELECT ${COLUMNS} FROM locations WHERE business_id = $1 ORDER BY slug COLLATE "C", id COLLATE "C"`,
    [businessId],
  );
  return r.rows.map(toLocation);
}
