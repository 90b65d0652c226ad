import { Type } from 'typebox';
import { createService, getService, listServices, patchService } from '../../../use-cases/operator/services.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { CreateServiceBody, OperatorServiceView, PatchServiceBody, ServiceParams } from '../../schemas/service.ts';
import { LocationFilter } from '../../schemas/location.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';

export async function serviceRoutes(app: App): Promise<void> {
  app.post(
    '/businesses/:slug/services',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateService',
        summary: 'Create a service at a location; an active one counts against maxActiveServices',
        params: Type.Object({ slug: Type.String({ maxLength: 100 }) }),
        body: CreateServiceBody,
        response: responses(200, Type.Object({ service: OperatorServiceView }), [
          ...OPERATOR_ERRORS,
          'request.not_found',
          'subscription.quota_exceeded',
        ]),
      },
    },
    async (request) => ok(request, { service: await createService(app.ctx.db, request.params.slug, request.body) }),
  );

  app.get(
    '/businesses/:slug/services',
    {
      config: operatorAccess(ROLES.everyone, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListServices',
        summary: 'Every service, inactive and not-online-bookable ones included, by name',
        params: Type.Object({ slug: Type.String({ maxLength: 100 }) }),
        querystring: LocationFilter,
        response: responses(200, Type.Object({ services: Type.Array(OperatorServiceView) }), [...OPERATOR_ERRORS, 'request.not_found']),
      },
    },
    async (request) => ok(request, { services: await listServices(app.ctx.db, request.params.slug, request.query.locationSlug) }),
  );

  app.get(
    '/services/:serviceId',
    {
      config: operatorAccess(ROLES.everyone, 'serviceId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorGetService',
        summary: 'One service',
        params: ServiceParams,
        response: responses(200, Type.Object({ service: OperatorServiceView }), [...OPERATOR_ERRORS, 'catalog.service_not_found']),
      },
    },
    async (request) => ok(request, { service: await getService(app.ctx.db, request.params.serviceId) }),
  );

  app.patch(
    '/services/:serviceId',
    {
      config: operatorAccess(ROLES.managers, 'serviceId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorPatchService',
        summary: 'Change any service field; pricingVersion changes with priceType, price or duration',
        params: ServiceParams,
        body: PatchServiceBody,
        response: responses(200, Type.Object({ service: OperatorServiceView }), [
          ...OPERATOR_ERRORS,
          'catalog.service_not_found',
          'subscription.quota_exceeded',
        ]),
      },
    },
    async (request) => ok(request, { service: await patchService(app.ctx.db, request.params.serviceId, request.body) }),
  );
}
