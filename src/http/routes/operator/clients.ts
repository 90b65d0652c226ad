import { Type } from 'typebox';
import { eraseClient } from '../../../use-cases/clients/erase.ts';
import { exportClient } from '../../../use-cases/clients/export.ts';
import { getClient } from '../../../use-cases/clients/read.ts';
import { listClients } from '../../../use-cases/clients/list.ts';
import { patchClient } from '../../../use-cases/clients/update.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { CURSOR_EXAMPLE } from '../../openapi-examples.ts';
import { withExample } from '../../openapi-parts.ts';
import { responses } from '../../schemas/common.ts';
import { ClientExport, ClientListItem, ClientListQuery, ClientParams, ClientView, PatchClientBody } from '../../schemas/client.ts';
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

  app.get(
    '/clients/:clientId/export',
    {
      config: operatorAccess(ROLES.managers, 'clientId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorExportClient',
        summary: 'Everything stored about a client, as a JSON file',
        description:
          'The client with notes and tags, each booking as the business sees it with its events and the consent it was made with, the messages to the client and its waitlist entries: what the business gives a guest who asks for their data. Answered as an attachment (`Content-Disposition`), in the envelope.',
        params: ClientParams,
        response: responses(200, Type.Object({ export: ClientExport }), [...OPERATOR_ERRORS, 'client.not_found'], {
          description: 'The export.',
          example: {
            export: {
              exportedAt: '2026-11-29T10:00:00.000Z',
              client: { ...clientExample, notes: 'Sensitive scalp.', erased: false },
              bookings: [],
              messages: [],
              waitlistEntries: [],
            },
          },
        }),
      },
    },
    async (request, reply) => {
      const { clientId } = request.params;
      const data = await exportClient(app.ctx.db, clientId, app.ctx.clock());
      void reply.header('content-disposition', `attachment; filename="client-${clientId.replace(/[^A-Za-z0-9_-]/g, '')}.json"`);
      return ok(request, { export: data });
    },
  );

  app.post(
    '/clients/:clientId/erase',
    {
      config: operatorAccess(ROLES.managers, 'clientId'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorEraseClient',
        summary: 'Erase a client: cancel its future bookings, then remove every stored copy of its name, phone and email',
        description:
          "Final. The client's bookings still to come are cancelled first (each with its `booking.cancelled` event and webhook), its open waitlist entries withdrawn and messages not yet sent to it skipped; then its name becomes `Erased client` and its phone, email, notes and tags go, and so does every stored copy: the bookings' guest fields, event and webhook payloads kept for the log, idempotency records, message records, waitlist entries. Each booking keeps its time, service, staff, price, status and reference. Erasing an erased client changes nothing. See docs/clients-and-privacy.md.",
        params: ClientParams,
        response: responses(200, Type.Object({ client: ClientView }), [...OPERATOR_ERRORS, 'client.not_found'], {
          description: 'The client as it now is.',
          example: {
            client: {
              ...clientExample,
              name: 'Erased client',
              phone: null,
              email: null,
              tags: [],
              nextVisitAt: null,
              notes: '',
              erased: true,
              bookings: [],
            },
          },
        }),
      },
    },
    async (request) => {
      const actor = request.principal?.kind === 'member' ? 'member' : 'operator';
      return ok(request, { client: await eraseClient(app.ctx.db, { clientId: request.params.clientId, now: app.ctx.clock(), actor }) });
    },
  );
}
