import { Type } from 'typebox';
import { createBusiness, getBusiness, listBusinesses, patchBusiness, patchSubscription } from '../../../use-cases/operator/businesses.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { BusinessView, CreateBusinessBody, PatchBusinessBody, SubscriptionInput } from '../../schemas/operator-business.ts';
import { SubscriptionView } from '../../schemas/subscription.ts';
import { visibleBusinesses } from '../../plugins/operator-auth.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, PLATFORM_ONLY, ROLES, operatorAccess } from './access.ts';
import { businessExample, createBusinessExample, patchSubscriptionExample, subscriptionExample } from '../../openapi-examples.ts';
import { withExample } from '../../openapi-parts.ts';

export async function businessRoutes(app: App): Promise<void> {
  app.post(
    '/businesses',
    {
      config: PLATFORM_ONLY,
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateBusiness',
        summary: 'Create a business with its subscription',
        description:
          'Creates a business (a tenant: its slug, name and currency) with its subscription. Locations, services, staff, keys and members are added afterwards.',
        body: withExample(CreateBusinessBody, createBusinessExample),
        response: responses(200, Type.Object({ business: BusinessView }), [...OPERATOR_ERRORS], {
          description: 'The new business.',
          example: { business: businessExample },
        }),
      },
    },
    async (request) => ok(request, { business: await createBusiness(app.ctx.db, request.body) }),
  );

  app.get(
    '/businesses',
    {
      config: operatorAccess(ROLES.everyone, 'none'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListBusinesses',
        summary: 'The businesses the caller may see (every one for the platform operator), with their subscription, by slug',
        description:
          'For the platform operator every business; for a member the businesses they belong to. Each with its subscription, sorted by slug.',
        response: responses(200, Type.Object({ businesses: Type.Array(BusinessView) }), [...OPERATOR_ERRORS], {
          description: 'The businesses the caller may see.',
          example: { businesses: [businessExample] },
        }),
      },
    },
    async (request) => ok(request, { businesses: await listBusinesses(app.ctx.db, visibleBusinesses(request)) }),
  );

  app.get(
    '/businesses/:slug',
    {
      config: operatorAccess(ROLES.everyone, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorGetBusiness',
        summary: 'One business with its subscription',
        description: "One business with its subscription, plan limits and this month's booking count.",
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        response: responses(200, Type.Object({ business: BusinessView }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The business.',
          example: { business: businessExample },
        }),
      },
    },
    async (request) => ok(request, { business: await getBusiness(app.ctx.db, request.params.slug) }),
  );

  app.patch(
    '/businesses/:slug',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorPatchBusiness',
        summary: "Change the business's own settings: client retention",
        description:
          '`clientRetentionMonths` (12 to 120, or null): once a day, clients with no booking (by its start or its creation) in that many months are erased as `POST /clients/{clientId}/erase` erases them (docs/clients-and-privacy.md); null keeps clients. Fields left out stay as they are.',
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        body: withExample(PatchBusinessBody, { clientRetentionMonths: 24 }),
        response: responses(200, Type.Object({ business: BusinessView }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The business as changed.',
          example: { business: { ...businessExample, clientRetentionMonths: 24 } },
        }),
      },
    },
    async (request) => ok(request, { business: await patchBusiness(app.ctx.db, request.params.slug, request.body) }),
  );

  app.patch(
    '/businesses/:slug/subscription',
    {
      config: operatorAccess('platform', 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorPatchSubscription',
        summary: 'Change any subscription field',
        description:
          "Changes the plan, status, period, limits or feature overrides of the business's subscription; fields left out stay as they are, `null` limits mean unlimited. Takes effect on the next request.",
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        body: withExample(SubscriptionInput, patchSubscriptionExample),
        response: responses(200, Type.Object({ subscription: SubscriptionView }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The subscription as changed.',
          example: {
            subscription: {
              ...subscriptionExample,
              plan: 'business',
              maxBookingsPerMonth: null,
              features: { ...subscriptionExample.features, analytics: true },
            },
          },
        }),
      },
    },
    async (request) => ok(request, { subscription: await patchSubscription(app.ctx.db, request.params.slug, request.body) }),
  );
}
