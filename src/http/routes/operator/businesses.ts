import { Type } from 'typebox';
import { createBusiness, getBusiness, listBusinesses, patchSubscription } from '../../../use-cases/operator/businesses.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { BusinessView, CreateBusinessBody, SubscriptionInput } from '../../schemas/operator-business.ts';
import { SubscriptionView } from '../../schemas/subscription.ts';
import { visibleBusinesses } from '../../plugins/operator-auth.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, PLATFORM_ONLY, ROLES, operatorAccess } from './access.ts';

export async function businessRoutes(app: App): Promise<void> {
  app.post(
    '/businesses',
    {
      config: PLATFORM_ONLY,
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateBusiness',
        summary: 'Create a business with its subscription',
        body: CreateBusinessBody,
        response: responses(200, Type.Object({ business: BusinessView }), [...OPERATOR_ERRORS]),
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
        response: responses(200, Type.Object({ businesses: Type.Array(BusinessView) }), [...OPERATOR_ERRORS]),
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
        params: Type.Object({ slug: Type.String({ maxLength: 100 }) }),
        response: responses(200, Type.Object({ business: BusinessView }), [...OPERATOR_ERRORS, 'request.not_found']),
      },
    },
    async (request) => ok(request, { business: await getBusiness(app.ctx.db, request.params.slug) }),
  );

  app.patch(
    '/businesses/:slug/subscription',
    {
      config: operatorAccess('platform', 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorPatchSubscription',
        summary: 'Change any subscription field',
        params: Type.Object({ slug: Type.String({ maxLength: 100 }) }),
        body: SubscriptionInput,
        response: responses(200, Type.Object({ subscription: SubscriptionView }), [...OPERATOR_ERRORS, 'request.not_found']),
      },
    },
    async (request) => ok(request, { subscription: await patchSubscription(app.ctx.db, request.params.slug, request.body) }),
  );
}
