import { keysetPage } from '../../../domain/keyset-page.ts';
import { checkSalon } from '../../../domain/scope.ts';
import { toDeliveryView } from '../../../domain/webhooks/delivery-view.ts';
import { resolveDeliveryWindow } from '../../../domain/webhooks/delivery-window.ts';
import { listAttempts, listDeliveries } from '../../../store/webhook-log.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { authOf } from '../../plugins/auth.ts';
import { responses } from '../../schemas/common.ts';
import { DeliveriesQuery, DeliveriesResult } from '../../schemas/webhook.ts';
import { PUBLIC_AUTH_ERRORS } from './access-errors.ts';

const LIST = 'public-webhook-deliveries';

/** Where the next page starts, and the window the first page resolved (so "now" does not move). */
interface Position {
  at: string;
  id: string;
  from: string;
  to: string | null;
}

export async function webhookDeliveryRoutes(app: App): Promise<void> {
  app.get(
    '/webhooks/deliveries',
    {
      config: { access: { surface: 'public', capability: 'webhook.manage', group: 'webhook' } },
      schema: {
        tags: ['webhooks'],
        operationId: 'listWebhookDeliveries',
        summary: 'The delivery log: one record per business event with its attempts, newest first; at most 90 days per query',
        security: [{ apiKey: [] }],
        querystring: DeliveriesQuery,
        response: responses(200, DeliveriesResult, [...PUBLIC_AUTH_ERRORS, 'request.invalid_cursor']),
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
      const windowAfter = (position: Position | undefined) =>
        position ? { from: new Date(position.from), to: position.to === null ? null : new Date(position.to) } : asked!;
      const { rows: page, cursor } = await keysetPage(
        { secret: app.ctx.serverSecret, list: LIST, businessId: auth.businessId, filters, limit, cursor: query.cursor },
        (position: Position | undefined, fetchLimit) => {
          const window = windowAfter(position);
          return listDeliveries(app.ctx.db, {
            businessId: auth.businessId,
            from: window.from,
            to: window.to,
            event: query.event,
            outcome: query.outcome,
            before: position ? { at: position.at, id: position.id } : undefined,
            limit: fetchLimit,
          });
        },
        (last, position) => {
          const window = windowAfter(position);
          return {
            at: last.positionAt,
            id: last.deliveryId,
            from: window.from.toISOString(),
            to: window.to === null ? null : window.to.toISOString(),
          };
        },
      );
      const attempts = await listAttempts(
        app.ctx.db,
        page.map((d) => d.deliveryId),
      );
      return ok(request, { deliveries: page.map((d) => toDeliveryView(d, attempts)) }, cursor ? { cursor } : undefined);
    },
  );
}
