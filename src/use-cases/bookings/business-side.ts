import type { BusinessBookingView } from '../../domain/bookings/business-view.ts';
import { AppError, invalidField } from '../../domain/errors.ts';
import type { LocationRecord } from '../../domain/catalog-records.ts';
import type { Queryable } from '../../store/db.ts';
import { createManualVisit, type ManualVisitPart } from './manual-visit.ts';
import type { ManualAuthor } from '../../domain/bookings/source.ts';
import type { Db } from '../../store/db.ts';
import { findBooking } from '../../store/bookings.ts';
import { findLocationBySlug } from '../../store/locations.ts';
import { findServiceById } from '../../store/services.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import { requireBusiness } from '../operator/businesses.ts';
import { businessView, businessViews } from './business-view.ts';
import { type ChangeRequest, changeBooking } from './lifecycle.ts';
import { createManualBooking, type ManualBookingInput } from './manual.ts';
import { manualWarnings, type ManualWarningView } from './manual-warnings.ts';
import { type ListQuery, listBookingRecords } from './queries.ts';

/**
 * POST /admin/v1/businesses/:slug/bookings: a booking the business takes itself (phone, walk-in).
 * Run again when aborted as a deadlock victim among concurrent clashing writes (then a 409).
 * Answers with the warnings of an odd time (in the past, a closed day, outside hours, time off):
 * booked all the same, since the business decides.
 */
export async function createBusinessBooking(
  db: Db,
  businessSlug: string,
  input: ManualCreateInput,
  /** who writes it: a signed-in member, or the platform operator's token */
  by: ManualAuthor,
  now: Date,
): Promise<{
  booking: BusinessBookingView;
  warnings: ManualWarningView[];
  visit?: { visitId: string; bookings: BusinessBookingView[] };
}> {
  const business = await requireBusiness(db, businessSlug);
  const location = await findLocationBySlug(db, business.id, input.locationSlug);
  if (!location) throw new AppError('request.not_found', `No location "${input.locationSlug}".`);
  const parts = await manualParts(db, location, input);
  if (parts.length > 1) {
    return transactionWithRetry(db, (tx) => createManualVisit(tx, location, parts, input, by, now));
  }
  const [{ service, staffId }] = parts as [ManualVisitPart];
  return transactionWithRetry(db, async (tx) => {
    const booking = await businessView(tx, await createManualBooking(tx, location, service, { ...input, staffId }, by, now));
    // after the create, which has refused a date or a staff member that is not one
    return { booking, warnings: await manualWarnings(tx, location, service, { ...input, staffId }, now) };
  });
}

/** A manual booking's body: one service with its staff member, or a visit of 2 to 4 parts. */
export type ManualCreateInput = Omit<ManualBookingInput, 'staffId'> & {
  locationSlug: string;
  serviceId?: string | undefined;
  staffId?: string | undefined;
  visit?: Array<{ serviceId: string; staffId: string }> | undefined;
};

/** The parts asked for, each service found at the location (exactly one of the two forms). */
export async function manualParts(
  q: Queryable,
  location: LocationRecord,
  input: Pick<ManualCreateInput, 'serviceId' | 'staffId' | 'visit'>,
): Promise<ManualVisitPart[]> {
  const single = input.serviceId !== undefined || input.staffId !== undefined;
  if (single === (input.visit !== undefined)) {
    throw invalidField('body.visit', 'give either serviceId and staffId, or visit (2 to 4 services), not both');
  }
  const asked = input.visit ?? [];
  if (single) {
    if (input.serviceId === undefined) throw invalidField('body.serviceId', 'is required with staffId');
    if (input.staffId === undefined) throw invalidField('body.staffId', 'is required with serviceId');
    asked.push({ serviceId: input.serviceId, staffId: input.staffId });
  }
  const parts: ManualVisitPart[] = [];
  for (const p of asked) {
    const service = await findServiceById(q, p.serviceId);
    if (!service || service.locationId !== location.id) throw new AppError('catalog.service_not_found');
    parts.push({ service, staffId: p.staffId });
  }
  return parts;
}

/** A business decision on a booking (accept, decline, propose, reschedule, complete, no-show). */
export function decideBooking(db: Db, req: ChangeRequest): Promise<BusinessBookingView> {
  // Run again when aborted as a deadlock victim among concurrent clashing writes (then a 409).
  return transactionWithRetry(db, async (tx) => businessView(tx, await changeBooking(tx, req)));
}

/** GET /admin/v1/businesses/:slug/bookings: the public list's filters, the business's view. */
export async function listBusinessBookings(
  db: Db,
  secret: Buffer,
  businessSlug: string,
  query: Omit<ListQuery, 'businessId'>,
): Promise<{ bookings: BusinessBookingView[]; cursor?: string | undefined }> {
  const business = await requireBusiness(db, businessSlug);
  const page = await listBookingRecords(db, secret, 'operator-bookings', { ...query, businessId: business.id });
  return { bookings: await businessViews(db, page.rows), cursor: page.cursor };
}

/** GET /admin/v1/bookings/:bookingId: any business's booking (the platform operator's reach). */
export async function getBusinessBooking(db: Db, bookingId: string): Promise<BusinessBookingView> {
  const b = await findBooking(db, null, bookingId);
  if (!b) throw new AppError('booking.not_found');
  return businessView(db, b);
}
