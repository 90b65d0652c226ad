import type { StaffRecord } from '../../domain/catalog-records.ts';
import { AppError, invalidField } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { compareDisplayOrder } from '../../domain/bookings/staff-assignment.ts';
import type { WorkingInterval } from '../../domain/availability/types.ts';
import { formatWorkingHours, parseWorkingHours, type WorkingHoursEntry } from '../../domain/working-hours.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { findServiceIdsAtLocation } from '../../store/services.ts';
import {
  findStaffById,
  insertStaff,
  listStaff as listStaffRecords,
  listStaffServiceIds,
  listStaffServiceIdsOf,
  listWorkingHours,
  listWorkingHoursOf,
  replaceStaffServices,
  replaceWorkingHours,
  updateStaff,
  type StaffFields,
} from '../../store/staff.ts';
import { requireBusiness } from './businesses.ts';
import { requireLocation } from './locations.ts';
import { enforcePlanLimit } from './plan-limits.ts';

export interface StaffInput {
  locationSlug: string;
  name: string;
  bio?: string;
  avatarUrl?: string;
  active?: boolean;
  position?: number | null;
  serviceIds: string[];
  workingHours: WorkingHoursEntry[];
}

/** Every field optional; `bio`/`avatarUrl: null` clear them; lists given replace the stored ones. */
export type StaffPatch = Partial<Omit<StaffInput, 'bio' | 'avatarUrl'>> & {
  bio?: string | null;
  avatarUrl?: string | null;
};

export interface StaffView {
  id: string;
  locationId: string;
  locationSlug: string;
  name: string;
  bio: string | null;
  avatarUrl: string | null;
  active: boolean;
  position: number | null;
  serviceIds: string[];
  workingHours: WorkingHoursEntry[];
  createdAt: string;
  updatedAt: string;
}

export async function requireStaff(q: Queryable, staffId: string): Promise<StaffRecord> {
  const s = await findStaffById(q, staffId);
  if (!s) throw new AppError('catalog.staff_not_found', `No staff member with id "${staffId}".`);
  return s;
}

function staffView(s: StaffRecord, serviceIds: string[], hours: readonly WorkingInterval[]): StaffView {
  return {
    id: s.id,
    locationId: s.locationId,
    locationSlug: s.locationSlug,
    name: s.name,
    bio: s.bio,
    avatarUrl: s.avatarUrl,
    active: s.active,
    position: s.position,
    serviceIds,
    workingHours: formatWorkingHours(hours),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

async function loadStaffView(q: Queryable, staffId: string): Promise<StaffView> {
  const s = await requireStaff(q, staffId);
  return staffView(s, await listStaffServiceIds(q, s.id), await listWorkingHours(q, s.id));
}

/** A staff member performs only services of their own location. */
async function checkServicesAtLocation(q: Queryable, locationId: string, locationSlug: string, ids: string[]): Promise<void> {
  const found = new Set(await findServiceIdsAtLocation(q, locationId, ids));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new AppError('catalog.service_not_found', `Not services of location "${locationSlug}": ${missing.join(', ')}.`, {
      serviceIds: missing,
    });
  }
}

export async function createStaff(db: Db, businessSlug: string, input: StaffInput): Promise<StaffView> {
  const hours = parseWorkingHours(input.workingHours, 'body.workingHours');
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, businessSlug);
    const location = await requireLocation(tx, b.id, input.locationSlug);
    await checkServicesAtLocation(tx, location.id, location.slug, input.serviceIds);
    const active = input.active ?? true;
    if (active) await enforcePlanLimit(tx, b.id, 'maxStaffMembers');
    const id = newId('stf');
    await insertStaff(tx, {
      id,
      businessId: b.id,
      locationId: location.id,
      name: input.name,
      bio: input.bio ?? null,
      avatarUrl: input.avatarUrl ?? null,
      active,
      position: input.position ?? null,
    });
    await replaceWorkingHours(tx, id, hours);
    await replaceStaffServices(tx, id, input.serviceIds);
    return loadStaffView(tx, id);
  });
}

export async function patchStaff(db: Db, staffId: string, patch: StaffPatch): Promise<StaffView> {
  const hours = patch.workingHours === undefined ? undefined : parseWorkingHours(patch.workingHours, 'body.workingHours');
  return db.transaction(async (tx) => {
    const current = await requireStaff(tx, staffId);
    if (patch.locationSlug !== undefined && patch.locationSlug !== current.locationSlug) {
      throw invalidField('body.locationSlug', 'cannot be changed; create the staff member at the other location');
    }
    if (patch.serviceIds !== undefined) {
      await checkServicesAtLocation(tx, current.locationId, current.locationSlug, patch.serviceIds);
    }
    if (patch.active === true && !current.active) await enforcePlanLimit(tx, current.businessId, 'maxStaffMembers');
    const fields: Partial<StaffFields> = {
      name: patch.name,
      bio: patch.bio,
      avatarUrl: patch.avatarUrl,
      active: patch.active,
      position: patch.position,
    };
    await updateStaff(tx, current.id, fields);
    if (hours !== undefined) await replaceWorkingHours(tx, current.id, hours);
    if (patch.serviceIds !== undefined) await replaceStaffServices(tx, current.id, patch.serviceIds);
    return loadStaffView(tx, current.id);
  });
}

export async function getStaff(db: Db, staffId: string): Promise<StaffView> {
  return db.transaction((tx) => loadStaffView(tx, staffId));
}

/** Every staff member, inactive ones too, by name then id; `locationSlug` filters. Three queries whatever the count. */
export async function listStaff(db: Db, businessSlug: string, locationSlug?: string): Promise<StaffView[]> {
  return db.transaction(async (tx) => {
    const b = await requireBusiness(tx, businessSlug);
    const location = locationSlug === undefined ? undefined : await requireLocation(tx, b.id, locationSlug);
    const staff = (await listStaffRecords(tx, b.id, location?.id)).sort(compareDisplayOrder);
    const ids = staff.map((s) => s.id);
    const services = await listStaffServiceIdsOf(tx, ids);
    const hours = await listWorkingHoursOf(tx, ids);
    return staff.map((s) => staffView(s, services.get(s.id)!, hours.get(s.id)!));
  });
}
