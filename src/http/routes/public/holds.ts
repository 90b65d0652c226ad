import { Type } from 'typebox';
import { requireOneServiceOrVisit } from '../../../domain/availability/visit.ts';
import { toHoldView, toVisitHoldView } from '../../../domain/holds/view.ts';
import { checkSalon } from '../../../domain/scope.ts';
import { createPublicHold, createPublicVisitHold } from '../../../use-cases/holds/public-hold.ts';
import { releasePublicHold } from '../../../use-cases/holds/release.ts';
import { cacheUse } from '../../cache-use.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { createHoldExample, holdExample } from '../../openapi-examples.ts';
import { withExample } from '../../openapi-parts.ts';
import { authOf } from '../../plugins/auth.ts';
import { runIdempotent } from '../../plugins/idempotency.ts';
import { responses } from '../../schemas/common.ts';
import { CreateHoldBody, HoldResult } from '../../schemas/hold.ts';
import { IdempotencyKeyHeader } from '../../schemas/idempotency-key.ts';
import { PUBLIC_AUTH_ERRORS, WRITE_ERRORS } from './access-errors.ts';

export async function holdRoutes(app: App): Promise<void> {
  app.post(
    '/holds',
    {
      config: {
        access: {
          surface: 'public',
          capability: 'booking.create',
          group: 'booking',
          guestPartner: true,
          idempotentOperation: 'createHold',
        },
      },
      schema: {
        tags: ['bookings'],
        operationId: 'createHold',
        summary: "Hold a slot while the guest types (201); it ends after the business's holdMinutes",
        description:
          'Keeps one time of one staff member for one service until it expires, is released, or becomes a booking (`holdId` on POST /v1/bookings). While it lives no search offers that time and no other create or hold can take it, from any instance or channel: the database enforces it. Without `staffId` a free staff member is taken as a create would. A taken time is 409 `booking.slot_unavailable`. Group-session services are not held (400). With `serviceIds` (2 to 4 services, in order) the whole visit is held, each part with its staff member, back to back, and `hold.visit` lists the parts; a booking names it with `holdId` and `visit`.',
        security: [{ apiKey: [] }],
        headers: IdempotencyKeyHeader,
        body: withExample(CreateHoldBody, createHoldExample),
        response: responses(
          201,
          HoldResult,
          [
            ...PUBLIC_AUTH_ERRORS,
            ...WRITE_ERRORS,
            'booking.slot_unavailable',
            'booking.booking_disabled',
            'catalog.service_not_found',
            'catalog.staff_not_found',
          ],
          { description: 'The time is held until `expiresAt`.', example: { hold: holdExample } },
        ),
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      checkSalon(auth, request.body.salonSlug);
      const { serviceId, serviceIds, ...rest } = request.body;
      requireOneServiceOrVisit(request.body);
      return runIdempotent(app, request, reply, async (tx) => {
        const common = { auth, now: app.ctx.clock(), cache: cacheUse(app, request) };
        if (serviceIds !== undefined) {
          return {
            status: 201 as const,
            data: { hold: toVisitHoldView(await createPublicVisitHold(tx, { ...common, body: { ...rest, serviceIds } })) },
          };
        }
        const req = { ...common, body: { ...rest, serviceId: serviceId! }, gate: app.ctx.bookingGate };
        return { status: 201 as const, data: { hold: toHoldView(await createPublicHold(tx, req)) } };
      });
    },
  );

  app.delete(
    '/holds/:holdId',
    {
      config: { access: { surface: 'public', capability: 'booking.create', group: 'booking', guestPartner: true } },
      schema: {
        tags: ['bookings'],
        operationId: 'releaseHold',
        summary: 'Release a hold: its time is offered again at once',
        description:
          "Frees a live hold (the guest chose another time or left). A hold that already ended (released, used by a booking, expired) is answered as it is, so a repeated release is not an error. Unknown, or another business's: 404 `booking.hold_not_found`.",
        security: [{ apiKey: [] }],
        params: Type.Object({ holdId: Type.String({ minLength: 1, maxLength: 100, description: 'the `holdId` of the hold' }) }),
        response: responses(200, HoldResult, [...PUBLIC_AUTH_ERRORS, 'booking.hold_not_found'], {
          description: 'The hold, now released (or as it ended).',
          example: { hold: { ...holdExample, status: 'released' } },
        }),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { hold, visit } = await releasePublicHold(app.ctx.db, auth.businessId, request.params.holdId);
      return ok(request, { hold: visit ? toVisitHoldView(visit) : toHoldView(hold) });
    },
  );
}
