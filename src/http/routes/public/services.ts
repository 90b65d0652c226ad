import { Type } from 'typebox';
import { listServices } from '../../../use-cases/catalog/listings.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { authOf } from '../../plugins/auth.ts';
import { LocationScopeQuery, Service } from '../../schemas/catalog.ts';
import { responses } from '../../schemas/common.ts';
import { PUBLIC_AUTH_ERRORS } from './access-errors.ts';
import { serviceExample } from '../../openapi-examples.ts';
import { cacheUse } from '../../cache-use.ts';

export async function serviceListRoutes(app: App): Promise<void> {
  app.get(
    '/services',
    {
      config: { access: { surface: 'public', capability: 'services.read', group: 'catalog', guestPartner: true } },
      schema: {
        tags: ['catalog'],
        operationId: 'listServices',
        summary: 'Active, online-bookable services of a location, by name',
        description:
          "The services a guest can book online at one location, sorted by name, with price, duration and deposit terms. Send a service's `pricingVersion` back as `expectedPricingVersion` when booking, so that a price change in between is refused rather than booked.",
        security: [{ apiKey: [] }],
        querystring: LocationScopeQuery,
        response: responses(200, Type.Object({ services: Type.Array(Service) }), [...PUBLIC_AUTH_ERRORS], {
          description: 'The bookable services of the location.',
          example: { services: [serviceExample] },
        }),
      },
    },
    async (request) => {
      const { salonSlug, locationSlug } = request.query;
      return ok(request, {
        services: await listServices(app.ctx.db, authOf(request), salonSlug, locationSlug, cacheUse(app, request)),
      });
    },
  );
}
