import type { LocationRecord, ServiceRecord } from '../domain/catalog-records.ts';
import { AppError } from '../domain/errors.ts';
import { checkSalon } from '../domain/scope.ts';
import type { Queryable } from '../store/db.ts';
import { findLocationBySlug } from '../store/locations.ts';
import { findLocationWithService } from '../store/services.ts';

/**
 * The location a location-scoped public call works on. Another business's salon and a location
 * slug that does not exist in the key's business look the same to the caller: 403, never 404.
 */
export async function resolveLocation(
  q: Queryable,
  auth: { businessId: string; businessSlug: string },
  salonSlug: string,
  locationSlug: string,
): Promise<LocationRecord> {
  checkSalon(auth, salonSlug);
  const location = await findLocationBySlug(q, auth.businessId, locationSlug);
  if (!location) throw new AppError('auth.scope_mismatch');
  return location;
}

/**
 * resolveLocation plus the service a booking is for, in one round trip: a service that is not at
 * that location (or is not there at all) comes back undefined.
 */
export async function resolveLocationAndService(
  q: Queryable,
  auth: { businessId: string; businessSlug: string },
  salonSlug: string,
  locationSlug: string,
  serviceId: string,
): Promise<{ location: LocationRecord; service: ServiceRecord | undefined }> {
  checkSalon(auth, salonSlug);
  const found = await findLocationWithService(q, auth.businessId, locationSlug, serviceId);
  if (!found) throw new AppError('auth.scope_mismatch');
  return found;
}
