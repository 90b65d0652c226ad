import { Type } from 'typebox';
import { listWaitlist } from '../../../use-cases/waitlist/list.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { CURSOR_EXAMPLE } from '../../openapi-examples.ts';
import { responses } from '../../schemas/common.ts';
import { WAITLIST_STATUSES, WaitlistEntryView, waitlistEntryExample } from '../../schemas/waitlist.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';

const SlugParams = Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) });

/** guest-side.md "Waitlist": every role reads the business's waitlist. */
export async function waitlistRoutes(app: App): Promise<void> {
  app.get(
    '/businesses/:slug/waitlist',
    {
      config: operatorAccess(ROLES.everyone, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListWaitlist',
        summary: 'The waitlist of the business, newest first',
        description:
          "Every waitlist entry with its status (`waiting`, `offered`, `booked`, `withdrawn`, `expired`), service, staff or any, dates and time window; the guest's contact in full (the front desk calls them). Page with `meta.cursor`.",
        params: SlugParams,
        querystring: Type.Object({
          status: Type.Optional(Type.Enum(WAITLIST_STATUSES, { description: 'only entries in this status' })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'page size' })),
          cursor: Type.Optional(Type.String({ maxLength: 2048, description: 'meta.cursor of the previous page' })),
        }),
        response: responses(
          200,
          Type.Object({ waitlist: Type.Array(WaitlistEntryView) }),
          [...OPERATOR_ERRORS, 'request.not_found', 'request.invalid_cursor'],
          { description: 'One page of waitlist entries.', example: { waitlist: [waitlistEntryExample] }, meta: { cursor: CURSOR_EXAMPLE } },
        ),
      },
    },
    async (request) => {
      const { status, limit, cursor } = request.query;
      const page = await listWaitlist(app.ctx.db, {
        slug: request.params.slug,
        secret: app.ctx.serverSecret,
        status,
        limit: limit ?? 50,
        cursor,
      });
      return ok(request, { waitlist: page.rows }, page.cursor ? { cursor: page.cursor } : undefined);
    },
  );
}
