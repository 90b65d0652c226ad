import { Type } from 'typebox';
import { changeBooking } from '../../../use-cases/bookings/lifecycle.ts';
import { toBookingView } from '../../../domain/bookings/view.ts';
import { checkSalon } from '../../../domain/scope.ts';
import type { App } from '../../context.ts';
import { authOf } from '../../plugins/auth.ts';
import { runIdempotent } from '../../plugins/idempotency.ts';
import { BookingRef } from '../../schemas/booking.ts';
import { responses, Slug } from '../../schemas/common.ts';
import { IdempotencyKeyHeader } from '../../schemas/idempotency-key.ts';
import { PUBLIC_AUTH_ERRORS, WRITE_ERRORS } from './access-errors.ts';
import { cancelledBookingExample } from '../../openapi-examples.ts';

export async function bookingCancelRoutes(app: App): Promise<void> {
  app.post(
    '/bookings/:bookingId/cancel',
    {
      config: {
        access: { surface: 'public', capability: 'booking.cancel', group: 'booking', idempotentOperation: 'cancelBooking' },
      },
      schema: {
        tags: ['bookings'],
        operationId: 'cancelBooking',
        summary: 'Cancel a requested, confirmed or rescheduleProposed booking (no body)',
        description:
          "Cancels a booking on the guest's behalf while it is `requested`, `confirmed` or `rescheduleProposed`; the freed time is bookable again at once and a `booking.cancelled` event is sent. Any other state is 409 `booking.invalid_transition`. No request body.",
        security: [{ apiKey: [] }],
        headers: IdempotencyKeyHeader,
        params: Type.Object({
          bookingId: Type.String({
            minLength: 1,
            maxLength: 100,
            description: 'The `bookingId` of the booking (not its publicReference).',
          }),
        }),
        querystring: Type.Object({ salonSlug: Type.Optional(Slug("optional; must be the key's business when given")) }),
        response: responses(
          200,
          Type.Object({ booking: BookingRef }),
          [...PUBLIC_AUTH_ERRORS, ...WRITE_ERRORS, 'booking.not_found', 'booking.invalid_transition'],
          { description: 'The cancelled booking.', example: { booking: cancelledBookingExample } },
        ),
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      checkSalon(auth, request.query.salonSlug);
      return runIdempotent(app, request, reply, async (tx) => {
        const booking = await changeBooking(tx, {
          businessId: auth.businessId,
          bookingId: request.params.bookingId,
          action: 'cancel',
          now: app.ctx.clock(),
          salonSlug: auth.businessSlug,
          actor: 'api',
        });
        return { status: 200, data: { booking: toBookingView(booking) } };
      });
    },
  );
}
