import { Type } from 'typebox';
import { checkedDates } from '../../../domain/bookings/date-filter.ts';
import { getBookingEvents, getBookingView, listBookingViews } from '../../../use-cases/bookings/queries.ts';
import { BOOKING_STATUSES } from '../../../domain/bookings/states.ts';
import { checkSalon } from '../../../domain/scope.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { authOf } from '../../plugins/auth.ts';
import { BookingRef } from '../../schemas/booking.ts';
import { DateString, responses, Slug } from '../../schemas/common.ts';
import { PUBLIC_AUTH_ERRORS } from './access-errors.ts';

const BookingIdParams = Type.Object({ bookingId: Type.String({ minLength: 1, maxLength: 100 }) });
const OptionalSalon = Type.Object({ salonSlug: Type.Optional(Slug("optional; must be the key's business when given")) });

export async function bookingReadRoutes(app: App): Promise<void> {
  app.get(
    '/bookings',
    {
      config: { access: { surface: 'public', capability: 'booking.read', group: 'booking' } },
      schema: {
        tags: ['bookings'],
        operationId: 'listBookings',
        summary: 'List bookings, newest created first',
        security: [{ apiKey: [] }],
        querystring: Type.Object({
          salonSlug: Slug('the business (must match the key)'),
          status: Type.Optional(Type.Enum(BOOKING_STATUSES)),
          locationSlug: Type.Optional(Slug('only bookings of this location')),
          from: Type.Optional(DateString('first booking day (local), with `to`')),
          to: Type.Optional(DateString('last booking day (local, inclusive), with `from`')),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
          cursor: Type.Optional(Type.String({ maxLength: 2048, description: 'meta.cursor of the previous page' })),
        }),
        response: responses(200, Type.Object({ bookings: Type.Array(BookingRef) }), [...PUBLIC_AUTH_ERRORS, 'request.invalid_cursor']),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const dates = checkedDates(request.query.from, request.query.to);
      checkSalon(auth, request.query.salonSlug);
      const { bookings, cursor } = await listBookingViews(app.ctx.db, app.ctx.serverSecret, 'public-bookings', {
        businessId: auth.businessId,
        status: request.query.status,
        locationSlug: request.query.locationSlug,
        dates,
        limit: request.query.limit,
        cursor: request.query.cursor,
      });
      return ok(request, { bookings }, cursor ? { cursor } : undefined);
    },
  );

  app.get(
    '/bookings/:bookingId',
    {
      config: { access: { surface: 'public', capability: 'booking.read', group: 'booking' } },
      schema: {
        tags: ['bookings'],
        operationId: 'getBooking',
        summary: 'One booking',
        security: [{ apiKey: [] }],
        params: BookingIdParams,
        querystring: OptionalSalon,
        response: responses(200, Type.Object({ booking: BookingRef }), [...PUBLIC_AUTH_ERRORS, 'booking.not_found']),
      },
    },
    async (request) => {
      const auth = authOf(request);
      checkSalon(auth, request.query.salonSlug);
      return ok(request, { booking: await getBookingView(app.ctx.db, auth.businessId, request.params.bookingId) });
    },
  );

  app.get(
    '/bookings/:bookingId/events',
    {
      config: { access: { surface: 'public', capability: 'booking.read', group: 'booking' } },
      schema: {
        tags: ['bookings'],
        operationId: 'listBookingEvents',
        summary: "The booking's business events, oldest first, each the exact webhook payload",
        security: [{ apiKey: [] }],
        params: BookingIdParams,
        querystring: OptionalSalon,
        response: responses(200, Type.Object({ events: Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'BookingEvent#' })) }), [
          ...PUBLIC_AUTH_ERRORS,
          'booking.not_found',
        ]),
      },
    },
    async (request) => {
      const auth = authOf(request);
      checkSalon(auth, request.query.salonSlug);
      return ok(request, { events: await getBookingEvents(app.ctx.db, auth.businessId, request.params.bookingId) });
    },
  );
}
