import type { LocationRecord } from '../catalog-records.ts';
import type { LocationSnapshot } from './record.ts';

/** The location as the booking keeps it: later renames or moves do not rewrite past bookings. */
export function locationSnapshotOf(location: LocationRecord): LocationSnapshot {
  return {
    id: location.id,
    locationSlug: location.slug,
    publicLocationName: location.publicLocationName,
    address: { city: location.city, street: location.street, zip: location.zip },
    timezone: location.timezone,
  };
}
