import { checkSalon } from '../../../domain/scope.ts';
import { resolveDeliveryWindow } from '../../../domain/webhooks/delivery-window.ts';
import { listWebhookDeliveries } from '../../../use-cases/webhooks/deliveries.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { authOf } from '../../plugins/auth.ts';
import { responses } from '../../schemas/common.ts';
import { DeliveriesQuery, DeliveriesResult } from '../../schemas/webhook.ts';
import { PUBLIC_AUTH_ERRORS } from './access-errors.ts';
import { CURSOR_EXAMPLE, deliveryExample } from '../../openapi-examples.ts';

export async function webhookDeliveryRoutes(app: App): Promise<void> {
  app.get(
    '/webhooks/deliveries',
    {
      config: { access: { surface: 'public', capability: 'webhook.manage', group: 'webhook' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'listWebhookDeliveries',
        summary: 'The delivery log: one record per business event with its attempts, newest first; at most 90 days per query',
        description:
          'The delivery log: one record per business event with each of its attempts (time, duration, outcome, HTTP status), newest first. Filter by event, outcome of the last attempt and a time window of at most 90 days; page with `meta.cursor`.',
        security: [{ apiKey: [] }],
        querystring: DeliveriesQuery,
        response: responses(200, DeliveriesResult, [...PUBLIC_AUTH_ERRORS, 'request.invalid_cursor'], {
          description: 'One page of delivery records.',
          example: { deliveries: [deliveryExample] },
          meta: { cursor: CURSOR_EXAMPLE },
        }),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const query = request.query;
      const limit = query.limit ?? 50;
      // The cursor is bound to the filters as sent; the window it carries is the one page 1 resolved.
      const filters = { event: query.event, outcome: query.outcome, from: query.from, to: query.to, limit };
      // The window's checks before the scope's, as in GET /bookings: a bad window is a 400 whatever
      // the salon; a cursor (which carries its own window) is read after the scope, as there.
      const asked = query.cursor ? undefined : resolveDeliveryWindow(query, app.ctx.clock());
      checkSalon(auth, query.salonSlug);
      const { deliveries, cursor } = await listWebhookDeliveries(app.ctx.db, {
        serverSecret: app.ctx.serverSecret,
        businessId: auth.businessId,
        filters,
        cursor: query.cursor,
        window: asked,
      });
      return ok(request, { deliveries }, cursor ? { cursor } : undefined);
    },
  );
}
