import type { CreateOutcome } from '../../../use-cases/bookings/create.ts';
import { createPublicBooking, createPublicVisit } from '../../../use-cases/bookings/public-create.ts';
import type { VisitOutcome } from '../../../use-cases/bookings/create-visit.ts';
import { checkVisitBody } from '../../../domain/bookings/visit-plan.ts';
import { invalidField } from '../../../domain/errors.ts';
import { toBookingView } from '../../../domain/bookings/view.ts';
import { checkSalon } from '../../../domain/scope.ts';
import type { App } from '../../context.ts';
import { authOf } from '../../plugins/auth.ts';
import { runIdempotentStatement } from '../../plugins/idempotency.ts';
import { CreateBookingBody, CreateBookingResult } from '../../schemas/booking-create.ts';
import { withExample } from '../../openapi-parts.ts';
import { responses } from '../../schemas/common.ts';
import { IdempotencyKeyHeader } from '../../schemas/idempotency-key.ts';
import { PUBLIC_AUTH_ERRORS, WRITE_ERRORS } from './access-errors.ts';
import { bookingExample, createBookingExample } from '../../openapi-examples.ts';
import { cacheUse } from '../../cache-use.ts';

/**
 * A `null` member means "absent": the idempotency fingerprint already drops nulls (spec rule 11), so
 * a body with added null members must be the same request, not a 400 from the schema.
 */
function dropNulls(value: unknown): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (o[k] === null) delete o[k];
    else dropNulls(o[k]);
  }
}

export async function bookingCreateRoutes(app: App): Promise<void> {
  app.post(
    '/bookings',
    {
      config: {
        access: {
          surface: 'public',
          capability: 'booking.create',
          group: 'booking',
          guestPartner: true,
          idempotentOperation: 'createBooking',
        },
      },
      schema: {
        tags: ['bookings'],
        operationId: 'createBooking',
        summary: 'Request a booking (201); automatic services are confirmed in the same call',
        description:
          "Requests a booking for a guest in a slot found by availability search. Services with manual acceptance create a `requested` booking that the business accepts or declines later (watch the webhooks); automatic services are `confirmed` in the same call. The guest's consent is stored with the booking and never returned. Retrying with the same `Idempotency-Key` returns the same booking, never a second one.",
        security: [{ apiKey: [] }],
        headers: IdempotencyKeyHeader,
        body: withExample(CreateBookingBody, createBookingExample),
        response: responses(
          201,
          CreateBookingResult,
          [
            ...PUBLIC_AUTH_ERRORS,
            ...WRITE_ERRORS,
            'booking.slot_unavailable',
            'booking.slot_no_longer_available',
            'booking.service_pricing_changed',
            'booking.deposit_terms_required',
            'booking.deposit_terms_changed',
            'booking.deposit_unavailable',
            'booking.booking_disabled',
            'booking.session_full',
            'booking.slot_token_invalid',
            'booking.hold_not_found',
            'booking.hold_expired',
            'booking.hold_mismatch',
            'catalog.service_not_found',
            'catalog.staff_not_found',
            'subscription.quota_exceeded',
          ],
          {
            description: 'The booking was created (requested, or confirmed for automatic services).',
            example: { booking: bookingExample },
          },
        ),
      },
      preValidation: async (request) => {
        dropNulls(request.body);
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const body = request.body;
      checkSalon(auth, body.salonSlug);
      if (body.visit !== undefined) {
        checkVisitBody(body);
        const visitBody = { ...body, visit: body.visit };
        const createVisit = () =>
          runIdempotentStatement(app, request, reply, async (db, settle) => {
            const result = (outcome: VisitOutcome) => ({
              status: 201 as const,
              data: {
                booking: toBookingView(outcome.booking),
                visit: { visitId: outcome.visit.visitId, bookings: outcome.visit.bookings.map(toBookingView) },
              },
            });
            const req = { auth, body: visitBody, now: app.ctx.clock(), cache: cacheUse(app, request) };
            return result(await createPublicVisit(db, req, (outcome) => settle(result(outcome))));
          });
        return app.ctx.createLimit.run(auth.businessId, createVisit);
      }
      const { serviceId } = body;
      if (serviceId === undefined) throw invalidField('body.serviceId', 'is required (or `visit`)');
      const single = { ...body, serviceId };
      const create = () =>
        runIdempotentStatement(app, request, reply, async (db, settle) => {
          const result = (outcome: CreateOutcome) => ({
            status: 201 as const,
            data: { booking: toBookingView(outcome.booking) },
            ...(outcome.depositPaymentUrl ? { liveOnly: { nextAction: { depositPaymentUrl: outcome.depositPaymentUrl } } } : {}),
          });
          const { deposits, serverSecret: secret, bookingGate: gate } = app.ctx;
          const req = { auth, body: single, now: app.ctx.clock(), deposits, secret, gate, cache: cacheUse(app, request) };
          return result(await createPublicBooking(db, req, (outcome) => settle(result(outcome))));
        });
      // A burst of one business waits here, in memory, instead of filling the instance's pool
      // (docs/decisions.md, "A hot slot").
      return app.ctx.createLimit.run(auth.businessId, create);
    },
  );
}
