import { Type } from 'typebox';
import { createLocation, listLocations, patchLocation } from '../../../use-cases/operator/locations.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { CreateLocationBody, LocationParams, LocationView, PatchLocationBody } from '../../schemas/location.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';

export async function locationRoutes(app: App): Promise<void> {
  app.post(
    '/businesses/:slug/locations',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateLocation',
        summary: 'Create a location; counts against maxLocations',
        params: Type.Object({ slug: Type.String({ maxLength: 100 }) }),
        body: CreateLocationBody,
        response: responses(200, Type.Object({ location: LocationView }), [
          ...OPERATOR_ERRORS,
          'request.not_found',
          'subscription.quota_exceeded',
        ]),
      },
    },
    async (request) => ok(request, { location: await createLocation(app.ctx.db, request.params.slug, request.body) }),
  );

  app.get(
    '/businesses/:slug/locations',
    {
      config: operatorAccess(ROLES.everyone, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListLocations',
        summary: 'Every location of the business, booking-disabled ones included, by slug',
        params: Type.Object({ slug: Type.String({ maxLength: 100 }) }),
        response: responses(200, Type.Object({ locations: Type.Array(LocationView) }), [...OPERATOR_ERRORS, 'request.not_found']),
      },
    },
    async (request) => ok(request, { locations: await listLocations(app.ctx.db, request.params.slug) }),
  );

  app.patch(
    '/businesses/:slug/locations/:locationSlug',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorPatchLocation',
        summary: 'Change any location field',
        params: LocationParams,
        body: PatchLocationBody,
        response: responses(200, Type.Object({ location: LocationView }), [...OPERATOR_ERRORS, 'request.not_found']),
      },
    },
    async (request) =>
      ok(request, {
        location: await patchLocation(app.ctx.db, request.params.slug, request.params.locationSlug, request.body),
      }),
  );
}
