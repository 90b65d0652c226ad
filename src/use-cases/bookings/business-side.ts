import type { BusinessBookingView } from '../../domain/bookings/business-view.ts';
import { AppError } from '../../domain/errors.ts';
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
  input: ManualBookingInput & { locationSlug: string; serviceId: string },
  /** who writes it: a signed-in member, or the platform operator's token */
  by: ManualAuthor,
  now: Date,
): Promise<{ booking: BusinessBookingView; warnings: ManualWarningView[] }> {
  const business = await requireBusiness(db, businessSlug);
  const location = await findLocationBySlug(db, business.id, input.locationSlug);
  if (!location) throw new AppError('request.not_found', `No location "${input.locationSlug}".`);
  const service = await findServiceById(db, input.serviceId);
  if (!service || service.locationId !== location.id) throw new AppError('catalog.service_not_found');
  return transactionWithRetry(db, async (tx) => {
    const booking = await businessView(tx, await createManualBooking(tx, location, service, input, by, now));
    // after the create, which has refused a date or a staff member that is not one
    return { booking, warnings: await manualWarnings(tx, location, service, input, now) };
  });
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
