import { Type } from 'typebox';
import { createResource, listResources, patchResource } from '../../../use-cases/operator/resources.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { LocationFilter } from '../../schemas/location.ts';
import { CreateResourceBody, PatchResourceBody, ResourceParams, ResourceView } from '../../schemas/resource.ts';
import { createResourceExample, resourceExample } from '../../openapi-examples.ts';
import { withExample } from '../../openapi-parts.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';

export async function resourceRoutes(app: App): Promise<void> {
  app.post(
    '/businesses/:slug/resources',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateResource',
        summary: 'Create a resource (a chair, a wash basin) at a location, with how many units it has',
        description:
          'Creates an active resource at a location: something the location has `quantity` units of (1 to 50) and a service may need one unit of for its whole length, processing time included. A service names the resources it needs in `resourceIds`.',
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        body: withExample(CreateResourceBody, createResourceExample),
        response: responses(201, Type.Object({ resource: ResourceView }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The new resource.',
          example: { resource: resourceExample },
        }),
      },
    },
    async (request, reply) => {
      const resource = await createResource(app.ctx.db, request.params.slug, request.body);
      reply.code(201);
      return ok(request, { resource });
    },
  );

  app.get(
    '/businesses/:slug/resources',
    {
      config: operatorAccess(ROLES.everyone, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListResources',
        summary: 'Every resource, inactive ones included, by name',
        description: 'Every resource of the business, inactive ones included, sorted by name; optionally of one location.',
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        querystring: LocationFilter,
        response: responses(200, Type.Object({ resources: Type.Array(ResourceView) }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The resources of the business.',
          example: { resources: [resourceExample] },
        }),
      },
    },
    async (request) => ok(request, { resources: await listResources(app.ctx.db, request.params.slug, request.query.locationSlug) }),
  );

  app.patch(
    '/resources/:resourceId',
    {
      config: operatorAccess(ROLES.managers, 'resourceId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorPatchResource',
        summary: 'Change a resource: name, quantity, active',
        description:
          'Changes the name, the quantity (1 to 50) or whether the resource is active; fields left out stay as they are. A quantity below a unit that a booking still to come (or a live hold) occupies is 409 `resource.in_use`: move or cancel those bookings first. An inactive resource cannot be newly required by a service, and no longer limits the services that list it (they are offered without it); bookings made keep their units.',
        params: ResourceParams,
        body: withExample(PatchResourceBody, { quantity: 3 }),
        response: responses(
          200,
          Type.Object({ resource: ResourceView }),
          [...OPERATOR_ERRORS, 'catalog.resource_not_found', 'resource.in_use'],
          {
            description: 'The resource as changed.',
            example: { resource: { ...resourceExample, quantity: 3 } },
          },
        ),
      },
    },
    async (request) => ok(request, { resource: await patchResource(app.ctx.db, request.params.resourceId, request.body) }),
  );
}
