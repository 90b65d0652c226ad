import { checkSalon } from '../../../domain/scope.ts';
import { sealWebhookSecret, unsealWebhookSecret, type WebhookView } from '../../../domain/webhooks/config-view.ts';
import { getWebhookConfig, putWebhookConfig, removeWebhookConfig, rotateWebhookSecret } from '../../../use-cases/webhooks/config.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { authOf } from '../../plugins/auth.ts';
import { runIdempotent, type StoredForm } from '../../plugins/idempotency.ts';
import { responses } from '../../schemas/common.ts';
import { IdempotencyKeyHeader } from '../../schemas/idempotency-key.ts';
import { PutWebhookBody, SalonQuery, WebhookResult } from '../../schemas/webhook.ts';
import { PUBLIC_AUTH_ERRORS, WRITE_ERRORS } from './access-errors.ts';
import { withExample } from '../../openapi-parts.ts';
import { webhookExample, webhookWithSecretExample } from '../../openapi-examples.ts';

/**
 * The webhook configuration of the key's business. Every route is `webhook.manage` in the `webhook`
 * rate-limit group (rotate-secret too: the spec leaves its group open, and it is the same resource).
 * The signing secret is shown only by the first successful PUT and by rotate-secret; it rests
 * encrypted in the configuration and in the idempotency record, and is never logged.
 */
export async function webhookConfigRoutes(app: App): Promise<void> {
  const secretKept: StoredForm<{ webhook: WebhookView }> = {
    seal: (data) => sealWebhookSecret(app.ctx.serverSecret, data),
    unseal: (stored) => unsealWebhookSecret(app.ctx.serverSecret, stored),
  };

  app.get(
    '/webhooks/config',
    {
      config: { access: { surface: 'public', capability: 'webhook.manage', group: 'webhook' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'getWebhookConfig',
        summary: 'The webhook configuration (never the secret)',
        description: "The webhook URL of the key's business and when it was set. The signing secret is never shown here.",
        security: [{ apiKey: [] }],
        querystring: SalonQuery,
        response: responses(200, WebhookResult, [...PUBLIC_AUTH_ERRORS, 'webhook.not_configured'], {
          description: 'The webhook configuration.',
          example: { webhook: webhookExample },
        }),
      },
    },
    async (request) => {
      const auth = authOf(request);
      checkSalon(auth, request.query.salonSlug);
      return ok(request, await getWebhookConfig(app.ctx.db, auth.businessId));
    },
  );

  app.put(
    '/webhooks/config',
    {
      config: {
        access: { surface: 'public', capability: 'webhook.manage', group: 'webhook', idempotentOperation: 'putWebhookConfig' },
      },
      schema: {
        tags: ['webhooks'],
        operationId: 'putWebhookConfig',
        summary: 'Set the webhook URL; the first successful PUT creates the signing secret and shows it once',
        description:
          'Sets the URL that booking events are delivered to. The first successful PUT creates the signing secret and returns it once (`signingSecret`); later PUTs change the URL and keep the secret.',
        security: [{ apiKey: [] }],
        headers: IdempotencyKeyHeader,
        querystring: SalonQuery,
        body: withExample(PutWebhookBody, { url: webhookExample.url }),
        response: responses(200, WebhookResult, [...PUBLIC_AUTH_ERRORS, ...WRITE_ERRORS, 'webhook.invalid_url'], {
          description: 'The webhook configuration; with `signingSecret` on the first PUT only.',
          example: { webhook: webhookWithSecretExample },
        }),
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      checkSalon(auth, request.query.salonSlug);
      const url = request.body.url;
      return runIdempotent(
        app,
        request,
        reply,
        async (tx) => {
          const data = await putWebhookConfig(tx, {
            businessId: auth.businessId,
            url,
            allowPrivateTargets: app.ctx.config.webhookAllowPrivateTargets,
            serverSecret: app.ctx.serverSecret,
            now: app.ctx.clock(),
          });
          return { status: 200, data };
        },
        secretKept,
      );
    },
  );

  app.delete(
    '/webhooks/config',
    {
      config: {
        access: { surface: 'public', capability: 'webhook.manage', group: 'webhook', idempotentOperation: 'deleteWebhookConfig' },
      },
      schema: {
        tags: ['webhooks'],
        operationId: 'deleteWebhookConfig',
        summary: 'Remove the webhook: returns it as it was; deliveries still to be made end as failed',
        description:
          'Removes the webhook and returns it as it was. Deliveries not yet made end as `failed`; events stay readable through the events endpoint.',
        security: [{ apiKey: [] }],
        headers: IdempotencyKeyHeader,
        querystring: SalonQuery,
        response: responses(200, WebhookResult, [...PUBLIC_AUTH_ERRORS, ...WRITE_ERRORS, 'webhook.not_configured'], {
          description: 'The removed webhook configuration.',
          example: { webhook: webhookExample },
        }),
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      checkSalon(auth, request.query.salonSlug);
      return runIdempotent(app, request, reply, async (tx) => ({ status: 200, data: await removeWebhookConfig(tx, auth.businessId) }));
    },
  );

  app.post(
    '/webhooks/config/rotate-secret',
    {
      config: {
        access: { surface: 'public', capability: 'webhook.manage', group: 'webhook', idempotentOperation: 'rotateWebhookSecret' },
      },
      schema: {
        tags: ['webhooks'],
        operationId: 'rotateWebhookSecret',
        summary: 'Replace the signing secret now (no body); the new one is shown once and signs every later attempt',
        description:
          'Replaces the signing secret at once and returns the new one, once. Every later attempt, retries of older deliveries included, is signed with the new secret.',
        security: [{ apiKey: [] }],
        headers: IdempotencyKeyHeader,
        querystring: SalonQuery,
        response: responses(200, WebhookResult, [...PUBLIC_AUTH_ERRORS, ...WRITE_ERRORS, 'webhook.not_configured'], {
          description: 'The webhook configuration with its new signing secret.',
          example: { webhook: webhookWithSecretExample },
        }),
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      checkSalon(auth, request.query.salonSlug);
      return runIdempotent(
        app,
        request,
        reply,
        async (tx) => {
          const data = await rotateWebhookSecret(tx, {
            businessId: auth.businessId,
            serverSecret: app.ctx.serverSecret,
            now: app.ctx.clock(),
          });
          return { status: 200, data };
        },
        secretKept,
      );
    },
  );
}
