import { parseIsoDate } from '../availability/calendar.ts';
import type { Queryable } from '../../store/db.ts';
import { listEvents } from '../../store/booking-events.ts';
import { findLocationBySlug } from '../../store/locations.ts';
import { findBooking, listBookings } from '../../store/bookings.ts';
import { decodeCursor, encodeCursor } from '../cursor.ts';
import { AppError, invalidField } from '../errors.ts';
import type { BookingStatus } from './states.ts';
import { toBookingView, type BookingView } from './view.ts';

export interface ListQuery {
  businessId: string;
  status?: BookingStatus | undefined;
  locationSlug?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

function checkDate(path: string, value: string | undefined): void {
  if (value === undefined) return;
  try {
    parseIsoDate(value);
  } catch {
    throw invalidField(path, 'is not a real date');
  }
}

export async function listBookingViews(
  q: Queryable,
  secret: Buffer,
  list: string,
  query: ListQuery,
): Promise<{ bookings: BookingView[]; cursor?: string }> {
  if ((query.from === undefined) !== (query.to === undefined)) {
    throw invalidField(query.from === undefined ? 'query.from' : 'query.to', 'from and to must be given together');
  }
  checkDate('query.from', query.from);
  checkDate('query.to', query.to);
  if (query.from !== undefined && query.to !== undefined && query.to < query.from) {
    throw invalidField('query.to', 'must not be before from');
  }
  let locationId: string | undefined;
  if (query.locationSlug !== undefined) {
    locationId = (await findLocationBySlug(q, query.businessId, query.locationSlug))?.id;
    if (!locationId) throw new AppError('auth.scope_mismatch');
  }
  const limit = query.limit ?? 50;
  const filters = { status: query.status, locationSlug: query.locationSlug, from: query.from, to: query.to, limit };
  const after = query.cursor
    ? decodeCursor<{ createdAt: string; id: string }>(secret, list, query.businessId, filters, query.cursor)
    : undefined;
  // One extra row tells whether a next page exists without a count query.
  const rows = await listBookings(q, {
    businessId: query.businessId,
    status: query.status,
    locationId,
    fromDate: query.from,
    toDate: query.to,
    after,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const result: { bookings: BookingView[]; cursor?: string } = { bookings: page.map(toBookingView) };
  const last = page[page.length - 1];
  if (rows.length > limit && last) {
    result.cursor = encodeCursor(secret, list, query.businessId, filters, {
      createdAt: last.createdAt.toISOString(),
      id: last.id,
    });
  }
  return result;
}

export async function getBookingView(q: Queryable, businessId: string | null, bookingId: string): Promise<BookingView> {
  const b = await findBooking(q, businessId, bookingId);
  if (!b) throw new AppError('booking.not_found');
  return toBookingView(b);
}

/** The stored webhook payloads, oldest first, exactly as they were or would be sent. */
export async function getBookingEvents(q: Queryable, businessId: string, bookingId: string): Promise<unknown[]> {
  const b = await findBooking(q, businessId, bookingId);
  if (!b) throw new AppError('booking.not_found');
  return (await listEvents(q, bookingId)).map((json) => JSON.parse(json));
}
