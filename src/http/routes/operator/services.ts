import { Type } from 'typebox';
import { createService, getService, listServices, patchService } from '../../../use-cases/operator/services.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { CreateServiceBody, OperatorServiceView, PatchServiceBody, ServiceParams } from '../../schemas/service.ts';
import { LocationFilter } from '../../schemas/location.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';
import { createServiceExample, operatorServiceExample } from '../../openapi-examples.ts';
import { withExample } from '../../openapi-parts.ts';

export async function serviceRoutes(app: App): Promise<void> {
  app.post(
    '/businesses/:slug/services',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateService',
        summary: 'Create a service at a location; an active one counts against maxActiveServices',
        description:
          "Creates a service at a location: duration, price, acceptance policy (manual or automatic), buffers, deposit terms and booking mode (standard or group sessions). An active service counts against the plan's `maxActiveServices`.",
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        body: withExample(CreateServiceBody, createServiceExample),
        response: responses(
          200,
          Type.Object({ service: OperatorServiceView }),
          [...OPERATOR_ERRORS, 'request.not_found', 'catalog.resource_not_found', 'catalog.staff_not_found', 'subscription.quota_exceeded'],
          { description: 'The new service.', example: { service: operatorServiceExample } },
        ),
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
        description:
          'Every service of the business, inactive and not-online-bookable ones included, sorted by name; optionally of one location.',
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        querystring: LocationFilter,
        response: responses(200, Type.Object({ services: Type.Array(OperatorServiceView) }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The services of the business.',
          example: { services: [operatorServiceExample] },
        }),
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
        description: 'One service with every field the business can set.',
        params: ServiceParams,
        response: responses(200, Type.Object({ service: OperatorServiceView }), [...OPERATOR_ERRORS, 'catalog.service_not_found'], {
          description: 'The service.',
          example: { service: operatorServiceExample },
        }),
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
        summary: 'Change any service field; pricingVersion changes with priceType, price, duration or staff variants',
        description:
          "Changes any field of a service; fields left out stay as they are. A change of price type, price, duration or staff variants gives a new `pricingVersion`, so an integrator's booking made against the old one is refused (409 `booking.service_pricing_changed`).",
        params: ServiceParams,
        body: withExample(PatchServiceBody, { price: { amount: 13500, currency: 'HUF' } }),
        response: responses(
          200,
          Type.Object({ service: OperatorServiceView }),
          [
            ...OPERATOR_ERRORS,
            'catalog.service_not_found',
            'catalog.resource_not_found',
            'catalog.staff_not_found',
            'subscription.quota_exceeded',
          ],
          {
            description: 'The service as changed.',
            example: {
              service: {
                ...operatorServiceExample,
                price: { amount: 13500, currency: 'HUF' },
                pricingVersion: '9b0d3c6e2a41',
                updatedAt: '2026-11-25T10:05:00.000Z',
              },
            },
          },
        ),
      },
    },
    async (request) => ok(request, { service: await patchService(app.ctx.db, request.params.serviceId, request.body) }),
  );
}
