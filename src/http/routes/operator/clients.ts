import { Type } from 'typebox';
import { getClient } from '../../../use-cases/clients/read.ts';
import { listClients } from '../../../use-cases/clients/list.ts';
import { patchClient } from '../../../use-cases/clients/update.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { CURSOR_EXAMPLE } from '../../openapi-examples.ts';
import { withExample } from '../../openapi-parts.ts';
import { responses } from '../../schemas/common.ts';
import { ClientListItem, ClientListQuery, ClientParams, ClientView, PatchClientBody } from '../../schemas/client.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';

const SlugParams = Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) });

const clientExample = {
  id: 'cli_3f9a1c7e5b2d4a6c8e0f',
  name: 'Anna Kovács',
  phone: '+36301234567',
  email: 'anna@example.com',
  visits: 4,
  noShows: 0,
  lastVisitAt: '2026-11-02T09:00:00.000Z',
  nextVisitAt: '2026-12-07T10:00:00.000Z',
  tags: ['patch test done'],
};

/** clients-and-reports.md "Clients": every role reads and annotates the business's clients. */
export async function clientRoutes(app: App): Promise<void> {
  app.get(
    '/businesses/:slug/clients',
    {
      config: operatorAccess(ROLES.everyone, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListClients',
        summary: 'The clients of the business, by name; search by name, phone or email',
        description:
          "Every client of the business (each booking belongs to one: found by the guest's phone, else the email, when it was made), by name. `q` (at least 2 characters) finds part of a name in any case and with or without accents, part of an email, or a phone number by its digits. Erased clients are not listed. Page with `meta.cursor`.",
        params: SlugParams,
        querystring: ClientListQuery,
        response: responses(
          200,
          Type.Object({ clients: Type.Array(ClientListItem) }),
          [...OPERATOR_ERRORS, 'request.not_found', 'request.invalid_cursor'],
          { description: 'One page of clients.', example: { clients: [clientExample] }, meta: { cursor: CURSOR_EXAMPLE } },
        ),
      },
    },
    async (request) => {
      const { q, limit, cursor } = request.query;
      const page = await listClients(app.ctx.db, {
        slug: request.params.slug,
        secret: app.ctx.serverSecret,
        q,
        limit: limit ?? 50,
        cursor,
        now: app.ctx.clock(),
      });
      return ok(request, { clients: page.rows }, page.cursor ? { cursor: page.cursor } : undefined);
    },
  );

  app.get(
    '/clients/:clientId',
    {
      config: operatorAccess(ROLES.everyone, 'clientId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorGetClient',
        summary: 'A client with notes, tags and booking history',
        description:
          "The client's fields, notes and tags, and its bookings as the business sees them, newest appointment first (at most 200).",
        params: ClientParams,
        response: responses(200, Type.Object({ client: ClientView }), [...OPERATOR_ERRORS, 'client.not_found'], {
          description: 'The client.',
          example: { client: { ...clientExample, notes: 'Sensitive scalp.', erased: false, bookings: [] } },
        }),
      },
    },
    async (request) => ok(request, { client: await getClient(app.ctx.db, request.params.clientId, app.ctx.clock()) }),
  );

  app.patch(
    '/clients/:clientId',
    {
      config: operatorAccess(ROLES.everyone, 'clientId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorPatchClient',
        summary: "Change a client's name, notes or tags",
        description:
          'Fields left out stay as they are. `notes` at most 5,000 characters; `tags` replaces the list: at most 20, each 1 to 40 characters, trimmed, a repeated tag (in any case) kept once. A booking keeps the guest name it was made with.',
        params: ClientParams,
        body: withExample(PatchClientBody, { notes: 'Patch test 2026-11-20: fine.', tags: ['patch test done'] }),
        response: responses(200, Type.Object({ client: ClientView }), [...OPERATOR_ERRORS, 'client.not_found'], {
          description: 'The client as changed.',
          example: { client: { ...clientExample, notes: 'Patch test 2026-11-20: fine.', erased: false, bookings: [] } },
        }),
      },
    },
    async (request) => ok(request, { client: await patchClient(app.ctx.db, request.params.clientId, request.body, app.ctx.clock()) }),
  );
}
