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
import { bookingEventExample, bookingExample, confirmedBookingExample, CURSOR_EXAMPLE } from '../../openapi-examples.ts';

const BookingIdParams = Type.Object({
  bookingId: Type.String({ minLength: 1, maxLength: 100, description: 'The `bookingId` of the booking (not its publicReference).' }),
});
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
        description:
          "The bookings of the key's business, newest created first, filtered by status, location or a range of booking days. Page with `limit` and `meta.cursor`.",
        security: [{ apiKey: [] }],
        querystring: Type.Object({
          salonSlug: Slug('the business (must match the key)'),
          status: Type.Optional(Type.Enum(BOOKING_STATUSES, { description: 'only bookings in this state' })),
          locationSlug: Type.Optional(Slug('only bookings of this location')),
          from: Type.Optional(DateString('first booking day (local), with `to`')),
          to: Type.Optional(DateString('last booking day (local, inclusive), with `from`')),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'page size' })),
          cursor: Type.Optional(Type.String({ maxLength: 2048, description: 'meta.cursor of the previous page' })),
        }),
        response: responses(200, Type.Object({ bookings: Type.Array(BookingRef) }), [...PUBLIC_AUTH_ERRORS, 'request.invalid_cursor'], {
          description: 'One page of bookings.',
          example: { bookings: [bookingExample] },
          meta: { cursor: CURSOR_EXAMPLE },
        }),
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
        description: "One booking of the key's business, in its current state. Guest phone and email are never returned.",
        security: [{ apiKey: [] }],
        params: BookingIdParams,
        querystring: OptionalSalon,
        response: responses(200, Type.Object({ booking: BookingRef }), [...PUBLIC_AUTH_ERRORS, 'booking.not_found'], {
          description: 'The booking.',
          example: { booking: confirmedBookingExample },
        }),
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
        description:
          'Every business event of the booking, oldest first, each exactly the payload its webhook delivery carried (same `deliveryId`). Use it to reconcile after missed deliveries.',
        security: [{ apiKey: [] }],
        params: BookingIdParams,
        querystring: OptionalSalon,
        response: responses(
          200,
          Type.Object({ events: Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'BookingEvent#' })) }),
          [...PUBLIC_AUTH_ERRORS, 'booking.not_found'],
          { description: "The booking's events.", example: { events: [bookingEventExample] } },
        ),
      },
    },
    async (request) => {
      const auth = authOf(request);
      checkSalon(auth, request.query.salonSlug);
      return ok(request, { events: await getBookingEvents(app.ctx.db, auth.businessId, request.params.bookingId) });
    },
  );
}
