import type { App } from '../../context.ts';
import { Type } from 'typebox';
import { subscriptionOf } from '../../../use-cases/subscription.ts';
import { ok } from '../../envelope.ts';
import { authOf } from '../../plugins/auth.ts';
import { PUBLIC_AUTH_ERRORS } from './access-errors.ts';
import { responses, Slug } from '../../schemas/common.ts';
import { SubscriptionView } from '../../schemas/subscription.ts';
import { subscriptionExample } from '../../openapi-examples.ts';

export async function subscriptionRoutes(app: App): Promise<void> {
  app.get(
    '/subscription',
    {
      config: { access: { surface: 'public', capability: 'subscription.read', group: 'subscription' } },
      schema: {
        tags: ['subscription'],
        operationId: 'getSubscription',
        summary: "The business's subscription",
        description:
          "The plan of the key's business, its state, its quotas with this month's use, and its feature flags. Check `features.apiAccess` and `maxBookingsPerMonth` against `bookingsThisMonth` before relying on a booking flow.",
        security: [{ apiKey: [] }],
        querystring: Type.Object({ salonSlug: Type.Optional(Slug("optional; must be the key's business when given")) }),
        response: responses(200, Type.Object({ subscription: SubscriptionView }), [...PUBLIC_AUTH_ERRORS], {
          description: 'The subscription of the business.',
          example: { subscription: subscriptionExample },
        }),
      },
    },
    async (request) => {
      return ok(request, { subscription: await subscriptionOf(app.ctx.db, authOf(request), request.query.salonSlug) });
    },
  );
}
