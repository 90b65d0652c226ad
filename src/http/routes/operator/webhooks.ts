import { Type } from 'typebox';
import { resolveDeliveryWindow } from '../../../domain/webhooks/delivery-window.ts';
import {
  operatorDeleteWebhook,
  operatorPutWebhook,
  operatorRedeliver,
  operatorRotateWebhookSecret,
  operatorWebhookConfig,
  operatorWebhookDeliveries,
} from '../../../use-cases/webhooks/operator.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { DeliveriesResult, DeliveryResult, OperatorDeliveriesQuery, PutWebhookBody, WebhookResult } from '../../schemas/webhook.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';
import { CURSOR_EXAMPLE, deliveryExample, redeliveredExample, webhookExample, webhookWithSecretExample } from '../../openapi-examples.ts';
import { withExample } from '../../openapi-parts.ts';
import { redeliverySettings } from '../redelivery-settings.ts';

const SlugParams = Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) });
const DeliveryParams = Type.Object({
  slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }),
  deliveryId: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The `deliveryId` of the delivery record (and of its webhook payload).',
  }),
});

/**
 * The webhook of a business as the operator API shows it (business-side.md): the configuration
 * (owner; never the secret), the delivery log (owner and manager; the public log's filters and
 * paging) and the redelivery of one record (owner); and the configuration writes (owner), the
 * public use cases for the business the slug names: PUT (create or change the URL; the signing
 * secret in the answer only when it created the configuration), rotate-secret (the new secret,
 * once) and DELETE.
 */
export async function operatorWebhookRoutes(app: App): Promise<void> {
  app.get(
    '/businesses/:slug/webhook',
    {
      config: operatorAccess(ROLES.owner, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorGetWebhook',
        summary: 'The webhook configuration of the business (never the secret)',
        description: 'The webhook URL of the business and when it was set; never the signing secret.',
        params: SlugParams,
        response: responses(200, WebhookResult, [...OPERATOR_ERRORS, 'request.not_found', 'webhook.not_configured'], {
          description: 'The webhook configuration.',
          example: { webhook: webhookExample },
        }),
      },
    },
    async (request) => ok(request, await operatorWebhookConfig(app.ctx.db, request.params.slug)),
  );

  app.get(
    '/businesses/:slug/webhook/deliveries',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListWebhookDeliveries',
        summary: 'The delivery log, newest first, with the public log’s filters and paging (at most 90 days per query)',
        description:
          "The delivery log of the business: one record per event with each attempt, newest first, with the public log's filters and paging (at most 90 days per query).",
        params: SlugParams,
        querystring: OperatorDeliveriesQuery,
        response: responses(200, DeliveriesResult, [...OPERATOR_ERRORS, 'request.not_found', 'request.invalid_cursor'], {
          description: 'One page of delivery records.',
          example: { deliveries: [deliveryExample] },
          meta: { cursor: CURSOR_EXAMPLE },
        }),
      },
    },
    async (request) => {
      const query = request.query;
      const limit = query.limit ?? 50;
      const filters = { event: query.event, outcome: query.outcome, from: query.from, to: query.to, limit };
      const asked = query.cursor ? undefined : resolveDeliveryWindow(query, app.ctx.clock());
      const { deliveries, cursor } = await operatorWebhookDeliveries(app.ctx.db, request.params.slug, {
        serverSecret: app.ctx.serverSecret,
        filters,
        cursor: query.cursor,
        window: asked,
      });
      return ok(request, { deliveries }, cursor ? { cursor } : undefined);
    },
  );

  app.post(
    '/businesses/:slug/webhook/deliveries/:deliveryId/redeliver',
    {
      config: operatorAccess(ROLES.owner, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorRedeliverWebhook',
        summary:
          'Send the event again now as a new attempt of the same record (same deliveryId, body bytes and timestamp; ' +
          'current URL and secret), whatever its status; answers the record after the attempt',
        description:
          "Sends one event again now, whatever its delivery's status, as a new attempt of the same record: the same `deliveryId`, body bytes and `timestamp`, to the current URL signed with the current secret. Answers the record after the attempt.",
        params: DeliveryParams,
        response: responses(
          200,
          DeliveryResult,
          [...OPERATOR_ERRORS, 'request.not_found', 'webhook.not_configured', 'idempotency.request_in_progress'],
          { description: 'The delivery record with the new attempt.', example: { delivery: redeliveredExample } },
        ),
      },
    },
    async (request) => {
      const delivery = await operatorRedeliver(app.ctx.db, request.params.slug, {
        ...redeliverySettings(app),
        deliveryId: request.params.deliveryId,
      });
      return ok(request, { delivery });
    },
  );

  app.put(
    '/businesses/:slug/webhook',
    {
      config: operatorAccess(ROLES.owner, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorPutWebhook',
        summary: 'Set the webhook URL (create or change); the PUT that creates the configuration shows the signing secret once',
        description:
          'Sets the webhook URL of the business (creates or changes the configuration). The PUT that creates it returns the signing secret, once.',
        params: SlugParams,
        body: withExample(PutWebhookBody, { url: webhookExample.url }),
        response: responses(200, WebhookResult, [...OPERATOR_ERRORS, 'request.not_found', 'webhook.invalid_url'], {
          description: 'The webhook configuration; with `signingSecret` when this PUT created it.',
          example: { webhook: webhookWithSecretExample },
        }),
      },
    },
    async (request) =>
      ok(
        request,
        await operatorPutWebhook(app.ctx.db, request.params.slug, {
          url: request.body.url,
          allowPrivateTargets: app.ctx.config.webhookAllowPrivateTargets,
          serverSecret: app.ctx.serverSecret,
          now: app.ctx.clock(),
        }),
      ),
  );

  app.post(
    '/businesses/:slug/webhook/rotate-secret',
    {
      config: operatorAccess(ROLES.owner, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorRotateWebhookSecret',
        summary: 'Replace the signing secret now (no body); the new one is shown once and signs every later attempt',
        description: 'Replaces the signing secret at once and returns the new one, once; every later attempt is signed with it.',
        params: SlugParams,
        response: responses(200, WebhookResult, [...OPERATOR_ERRORS, 'request.not_found', 'webhook.not_configured'], {
          description: 'The configuration with its new signing secret.',
          example: { webhook: webhookWithSecretExample },
        }),
      },
    },
    async (request) =>
      ok(
        request,
        await operatorRotateWebhookSecret(app.ctx.db, request.params.slug, { serverSecret: app.ctx.serverSecret, now: app.ctx.clock() }),
      ),
  );

  app.delete(
    '/businesses/:slug/webhook',
    {
      config: operatorAccess(ROLES.owner, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorDeleteWebhook',
        summary: 'Remove the webhook: returns it as it was (no secret); deliveries still to be made end as failed',
        description: 'Removes the webhook and returns it as it was; deliveries not yet made end as failed.',
        params: SlugParams,
        response: responses(200, WebhookResult, [...OPERATOR_ERRORS, 'request.not_found', 'webhook.not_configured'], {
          description: 'The removed webhook configuration.',
          example: { webhook: webhookExample },
        }),
      },
    },
    async (request) => ok(request, await operatorDeleteWebhook(app.ctx.db, request.params.slug)),
  );
}
