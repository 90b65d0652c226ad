import type { Queryable } from '../../store/db.ts';
import { listEvents, listEventsWithActor } from '../../store/booking-events.ts';
import { findLocationBySlug } from '../../store/locations.ts';
import { findBooking, listBookings } from '../../store/bookings.ts';
import { AppError } from '../../domain/errors.ts';
import type { DateFilter } from '../../domain/bookings/date-filter.ts';
import { keysetPage } from '../../domain/keyset-page.ts';
import type { BookingRecord } from '../../domain/bookings/record.ts';
import type { BookingStatus } from '../../domain/bookings/states.ts';
import { toBookingView, type BookingView } from '../../domain/bookings/view.ts';

export interface ListQuery {
  businessId: string;
  status?: BookingStatus | undefined;
  locationSlug?: string | undefined;
  dates: DateFilter | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** Where a page of the bookings list ends: newest created first, the id breaking ties. */
interface ListPosition {
  createdAt: string;
  id: string;
}

export async function listBookingViews(
  q: Queryable,
  secret: Buffer,
  list: string,
  query: ListQuery,
): Promise<{ bookings: BookingView[]; cursor?: string }> {
  const page = await listBookingRecords(q, secret, list, query);
  const result: { bookings: BookingView[]; cursor?: string } = { bookings: page.rows.map(toBookingView) };
  if (page.cursor) result.cursor = page.cursor;
  return result;
}

/** A page of the bookings list as records: the public and the operator list render them apart. */
export async function listBookingRecords(
  q: Queryable,
  secret: Buffer,
  list: string,
  query: ListQuery,
): Promise<{ rows: BookingRecord[]; cursor?: string | undefined }> {
  let locationId: string | undefined;
  if (query.locationSlug !== undefined) {
    locationId = (await findLocationBySlug(q, query.businessId, query.locationSlug))?.id;
    if (!locationId) throw new AppError('auth.scope_mismatch');
  }
  const limit = query.limit ?? 50;
  const filters = { status: query.status, locationSlug: query.locationSlug, from: query.dates?.from, to: query.dates?.to, limit };
  const page = await keysetPage(
    { secret, list, businessId: query.businessId, filters, limit, cursor: query.cursor },
    (after: ListPosition | undefined, fetchLimit) =>
      listBookings(q, {
        businessId: query.businessId,
        status: query.status,
        locationId,
        fromDate: query.dates?.from,
        toDate: query.dates?.to,
        after,
        limit: fetchLimit,
      }),
    (last) => ({ createdAt: last.createdAt.toISOString(), id: last.id }),
  );
  return page;
}

export async function getBookingView(q: Queryable, businessId: string | null, bookingId: string): Promise<BookingView> {
  const b = await findBooking(q, businessId, bookingId);
  if (!b) throw new AppError('booking.not_found');
  return toBookingView(b);
}

/** The stored webhook payloads, oldest first, exactly as they were or would be sent. */
/**
 * GET /admin/v1/bookings/:bookingId/events: the events as webhooks carry them, each with who made
 * the change (`actor`) beside it; the stored payloads, and so the webhooks, stay as they were.
 */
export async function getOperatorBookingEvents(q: Queryable, bookingId: string): Promise<unknown[]> {
  const b = await findBooking(q, null, bookingId);
  if (!b) throw new AppError('booking.not_found');
  return (await listEventsWithActor(q, bookingId)).map((e) => ({ ...JSON.parse(e.payload), actor: e.actor }));
}

export async function getBookingEvents(q: Queryable, businessId: string | null, bookingId: string): Promise<unknown[]> {
  const b = await findBooking(q, businessId, bookingId);
  if (!b) throw new AppError('booking.not_found');
  return (await listEvents(q, bookingId)).map((json) => JSON.parse(json));
}
