import type { StaffAssignment } from '../../domain/bookings/staff-assignment.ts';
import type { LocationRecord } from '../../domain/catalog-records.ts';
import { AppError, invalidField } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { isValidTimeZone } from '../../domain/time/zone-name.ts';
import type { Db, Queryable } from '../../store/db.ts';
import {
  findLocationBySlug,
  insertLocation,
  listLocations as listLocationRecords,
  updateLocation,
  type LocationFields,
} from '../../store/locations.ts';
import { requireBusiness } from './businesses.ts';
import { enforcePlanLimit } from './plan-limits.ts';

export interface AddressInput {
  city: string;
  street: string;
  zip: string;
}

export interface LocationInput {
  slug: string;
  name: string;
  publicLocationName?: string;
  timezone: string;
  address: AddressInput;
  bookingEnabled?: boolean;
  slotIntervalMinutes?: number;
  minNoticeMinutes?: number;
  horizonDays?: number;
  paymentInstructions?: string | null;
  phone?: string | null;
  staffAssignment?: StaffAssignment;
}

export type LocationPatch = Partial<LocationInput>;

export interface LocationView {
  id: string;
  slug: string;
  name: string;
  publicLocationName: string;
  timezone: string;
  address: AddressInput;
  bookingEnabled: boolean;
  slotIntervalMinutes: number;
  minNoticeMinutes: number;
  horizonDays: number;
  paymentInstructions: string | null;
  phone: string | null;
  staffAssignment: StaffAssignment;
  createdAt: string;
  updatedAt: string;
}

export function locationView(l: LocationRecord): LocationView {
  return {
    id: l.id,
    slug: l.slug,
    name: l.name,
    publicLocationName: l.publicLocationName,
    timezone: l.timezone,
    address: { city: l.city, street: l.street, zip: l.zip },
    bookingEnabled: l.bookingEnabled,
    slotIntervalMinutes: l.slotIntervalMinutes,
    minNoticeMinutes: l.minNoticeMinutes,
    horizonDays: l.horizonDays,
    paymentInstructions: l.paymentInstructions,
    phone: l.phone,
    staffAssignment: l.staffAssignment,
    createdAt: l.createdAt.toISOString(),
    updatedAt: l.updatedAt.toISOString(),
  };
}

/** Operator-side lookup: an unknown location is a plain 404 (the operator may see everything). */
export async function requireLocation(q: Queryable, businessId: string, slug: string): Promise<LocationRecord> {
  const l = await findLocationBySlug(q, businessId, slug);
  if (!l) throw new AppError('request.not_found', `No location with slug "${slug}" in this business.`);
  return l;
}

function checkTimeZone(timezone: string | undefined): void {
  if (timezone !== undefined && !isValidTimeZone(timezone)) {
    throw invalidField('body.timezone', 'is not a known IANA time zone (e.g. Europe/Budapest)');
  }
}

function slugAvailable(location: LocationRecord | 'slug_taken'): LocationRecord {
  if (location === 'slug_taken') throw invalidField('body.slug', 'is already taken in this business');
  return location;
}

export async function createLocation(db: Db, businessSlug: string, input: LocationInput): Promise<LocationView> {
  checkTimeZone(input.timezone);
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, businessSlug);
    await enforcePlanLimit(tx, b.id, 'maxLocations');
    const location = await insertLocation(tx, {
      id: newId('loc'),
      businessId: b.id,
      slug: input.slug,
      name: input.name,
      publicLocationName: input.publicLocationName ?? input.name,
      timezone: input.timezone,
      ...input.address,
      bookingEnabled: input.bookingEnabled ?? true,
      slotIntervalMinutes: input.slotIntervalMinutes ?? 15,
      minNoticeMinutes: input.minNoticeMinutes ?? 60,
      horizonDays: input.horizonDays ?? 90,
      paymentInstructions: input.paymentInstructions ?? null,
      phone: input.phone ?? null,
      staffAssignment: input.staffAssignment ?? 'ordered',
    });
    return locationView(slugAvailable(location));
  });
}

export async function patchLocation(db: Db, businessSlug: string, locationSlug: string, patch: LocationPatch): Promise<LocationView> {
  checkTimeZone(patch.timezone);
  const { address, ...rest } = patch;
  const fields: Partial<LocationFields> = { ...rest, ...address };
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, businessSlug);
    const current = await requireLocation(tx, b.id, locationSlug);
    return locationView(slugAvailable(await updateLocation(tx, current.id, fields)));
  });
}

export async function listLocations(db: Db, businessSlug: string): Promise<LocationView[]> {
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, businessSlug);
    return (await listLocationRecords(tx, b.id)).map(locationView);
  });
}
