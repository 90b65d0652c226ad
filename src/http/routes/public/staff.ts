import { Type } from 'typebox';
import { listStaff } from '../../../use-cases/catalog/listings.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { authOf } from '../../plugins/auth.ts';
import { LocationScopeQuery, StaffMember } from '../../schemas/catalog.ts';
import { responses } from '../../schemas/common.ts';
import { PUBLIC_AUTH_ERRORS } from './access-errors.ts';
import { staffMemberExample } from '../../openapi-examples.ts';
import { cacheUse } from '../../cache-use.ts';

export async function staffListRoutes(app: App): Promise<void> {
  app.get(
    '/staff',
    {
      config: { access: { surface: 'public', capability: 'staff.read', group: 'catalog', guestPartner: true } },
      schema: {
        tags: ['catalog'],
        operationId: 'listStaff',
        summary: 'Active staff members of a location, by name',
        description:
          'The active staff members of one location, sorted by name, for a guest to choose from. Pass a `staffId` to availability search and booking to ask for that person.',
        security: [{ apiKey: [] }],
        querystring: LocationScopeQuery,
        response: responses(200, Type.Object({ staff: Type.Array(StaffMember) }), [...PUBLIC_AUTH_ERRORS], {
          description: 'The active staff of the location.',
          example: { staff: [staffMemberExample] },
        }),
      },
    },
    async (request) => {
      const { salonSlug, locationSlug } = request.query;
      return ok(request, {
        staff: await listStaff(app.ctx.db, authOf(request), salonSlug, locationSlug, cacheUse(app, request)),
      });
    },
  );
}
