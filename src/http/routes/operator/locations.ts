import { Type } from 'typebox';
import { createLocation, listLocations, patchLocation } from '../../../use-cases/operator/locations.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responses } from '../../schemas/common.ts';
import { CreateLocationBody, LocationParams, LocationView, PatchLocationBody } from '../../schemas/location.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';
import { createLocationExample, locationExample } from '../../openapi-examples.ts';
import { withExample } from '../../openapi-parts.ts';

export async function locationRoutes(app: App): Promise<void> {
  app.post(
    '/businesses/:slug/locations',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorCreateLocation',
        summary: 'Create a location; counts against maxLocations',
        description:
          "Creates a location of the business: its slug, name shown to guests, IANA time zone, address and booking rules (slot interval, minimum notice, horizon). Counts against the plan's `maxLocations`.",
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        body: withExample(CreateLocationBody, createLocationExample),
        response: responses(
          200,
          Type.Object({ location: LocationView }),
          [...OPERATOR_ERRORS, 'request.not_found', 'subscription.quota_exceeded'],
          { description: 'The new location.', example: { location: locationExample } },
        ),
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
        description: 'Every location of the business, booking-disabled ones included, sorted by slug.',
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        response: responses(200, Type.Object({ locations: Type.Array(LocationView) }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The locations of the business.',
          example: { locations: [locationExample] },
        }),
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
        description:
          'Changes any field of a location; fields left out stay as they are. Turning `bookingEnabled` off stops availability and new bookings there at once.',
        params: LocationParams,
        body: withExample(PatchLocationBody, { minNoticeMinutes: 120 }),
        response: responses(200, Type.Object({ location: LocationView }), [...OPERATOR_ERRORS, 'request.not_found'], {
          description: 'The location as changed.',
          example: { location: { ...locationExample, minNoticeMinutes: 120, updatedAt: '2026-11-25T10:00:00.000Z' } },
        }),
      },
    },
    async (request) =>
      ok(request, {
        location: await patchLocation(app.ctx.db, request.params.slug, request.params.locationSlug, request.body),
      }),
  );
}
