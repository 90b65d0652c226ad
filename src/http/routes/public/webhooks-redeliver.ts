import { Type } from 'typebox';
import { checkSalon } from '../../../domain/scope.ts';
import { redeliverWebhook } from '../../../use-cases/webhooks/redeliver.ts';
import type { App } from '../../context.ts';
import { authOf } from '../../plugins/auth.ts';
import { runIdempotentStatement } from '../../plugins/idempotency.ts';
import { responses, Slug } from '../../schemas/common.ts';
import { IdempotencyKeyHeader } from '../../schemas/idempotency-key.ts';
import { DeliveryResult } from '../../schemas/webhook.ts';
import { redeliverySettings } from '../redelivery-settings.ts';
import { PUBLIC_AUTH_ERRORS, WRITE_ERRORS } from './access-errors.ts';

const DELIVERY_ID = '0f3b2c6a9d1e4f708192a3b4c5d6e7f8';

const Params = Type.Object({
  deliveryId: Type.String({
    minLength: 1,
    maxLength: 100,
    description:
      "The record's `deliveryId` (32 lowercase hex characters), as in the delivery log and the payload; a delivery of " +
      'another business is 404 `request.not_found`.',
    examples: [DELIVERY_ID],
  }),
});

const Query = Type.Object({
  salonSlug: Type.Optional(Slug("Optional; when given it must be the key's business (else 403 `auth.scope_mismatch`).")),
});

const EXAMPLE = {
  delivery: {
    deliveryId: DELIVERY_ID,
    event: 'booking.confirmed',
    bookingId: 'bkg_k3v9q2m7x4t8w1r6z5pa',
    sequence: 2,
    status: 'succeeded',
    attemptCount: 4,
    lastAttemptAt: '2026-11-22T11:40:00.412Z',
    nextAttemptAt: null,
    outcome: 'success',
    statusCode: 200,
    attempts: [
      {
        attempt: 1,
        startedAt: '2026-11-22T10:15:03.130Z',
        durationMs: 8001,
        outcome: 'timeout',
        statusCode: null,
        error: 'no response within 8000 ms',
      },
      { attempt: 2, startedAt: '2026-11-22T10:16:10.020Z', durationMs: 42, outcome: 'http_error', statusCode: 503, error: null },
      { attempt: 3, startedAt: '2026-11-22T10:20:31.700Z', durationMs: 38, outcome: 'http_error', statusCode: 503, error: null },
      { attempt: 4, startedAt: '2026-11-22T11:40:00.280Z', durationMs: 132, outcome: 'success', statusCode: 200, error: null },
    ],
    createdAt: '2026-11-22T10:15:03.120Z',
  },
};

const RESPONSES = responses(200, DeliveryResult, [...PUBLIC_AUTH_ERRORS, ...WRITE_ERRORS, 'request.not_found', 'webhook.not_configured'], {
  description:
    'The delivery record after the attempt this request made (its outcome in `outcome`, `statusCode` and the last ' +
    'entry of `attempts`). A repeat with the same `Idempotency-Key` answers the same record with `meta.idempotent` ' +
    'and makes no attempt.',
  example: EXAMPLE,
});

/**
 * A minor, backwards-compatible addition to v1 (docs/webhooks.md section 8): the operator's
 * redelivery for the integrator, through the same use case. The attempt is an HTTP request no
 * transaction can undo, so the key is completed by a statement of its own after it
 * (runIdempotentStatement) instead of inside a transaction held open across the request.
 */
export async function webhookRedeliverRoutes(app: App): Promise<void> {
  app.post(
    '/webhooks/deliveries/:deliveryId/redeliver',
    {
      config: {
        access: { surface: 'public', capability: 'webhook.manage', group: 'webhook', idempotentOperation: 'redeliverWebhook' },
      },
      schema: {
        tags: ['webhooks'],
        operationId: 'redeliverWebhook',
        summary: 'Send one event again now, as a new attempt of the same delivery record',
        description:
          'Makes one attempt of the delivery now, inside the request, whatever its status: the same body bytes (so the ' +
          'same `deliveryId` and `timestamp`), sent to the URL configured now and signed with the current secret, ' +
          '`X-Service-Attempt` one more than the last (it may pass 3). The attempt is recorded like an automatic one: ' +
          'a `2xx` ends the record `succeeded`; a failure ends it `failed`, or `exhausted` when retryable after the ' +
          'third attempt (no automatic retry follows); a retryable failure of an earlier attempt leaves its retry to ' +
          'the worker. No body. Added in v1.3.0 (a backwards-compatible addition).',
        security: [{ apiKey: [] }],
        headers: IdempotencyKeyHeader,
        params: Params,
        querystring: Query,
        response: RESPONSES,
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      checkSalon(auth, request.query.salonSlug);
      return runIdempotentStatement(app, request, reply, async (db, settle) => {
        const delivery = await redeliverWebhook(db, {
          ...redeliverySettings(app),
          businessId: auth.businessId,
          deliveryId: request.params.deliveryId,
          settle: (d) => settle({ status: 200, data: { delivery: d } }),
        });
        return { status: 200, data: { delivery } };
      });
    },
  );
}
