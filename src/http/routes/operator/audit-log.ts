import { Type } from 'typebox';
import { listAuditLog } from '../../../use-cases/audit/list.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { CURSOR_EXAMPLE } from '../../openapi-examples.ts';
import { responses } from '../../schemas/common.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';

const DATE = Type.String({ format: 'date', description: 'a UTC date, inclusive' });

const AuditEntry = Type.Object({
  id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  actor: Type.Object({
    type: Type.Union([Type.Literal('operator'), Type.Literal('member'), Type.Literal('guest')]),
    id: Type.Union([Type.String(), Type.Null()], {
      description: "the member's user id; the booking's id for a guest; null for the platform operator",
    }),
    name: Type.Union([Type.String(), Type.Null()], { description: "the member's name; null for a guest" }),
    role: Type.Union([Type.String(), Type.Null()], { description: "the member's role in the business then" }),
  }),
  action: Type.String({ description: '`<resource>.<verb>`, for example `service.update`, `booking.cancel`, `client.erase`' }),
  target: Type.Object({ type: Type.String(), id: Type.Union([Type.String(), Type.Null()]) }),
  requestId: Type.Union([Type.String(), Type.Null()]),
  fields: Type.Array(Type.String(), { description: 'the names of the fields sent, never their values' }),
});

const example = {
  id: 'aud_4k8m2p6r1t5v9x3z7b0d',
  at: '2026-11-29T09:12:00.000Z',
  actor: { type: 'member' as const, id: 'usr_6d8f1h3k5m7p9r2t4v0x', name: 'Dóra Szabó', role: 'manager' },
  action: 'service.update',
  target: { type: 'service', id: 'svc_2b4d6f8h0k1m3p5r7t9v' },
  requestId: 'req_3wz2qrfwr9fjq1pvgre1',
  fields: ['durationMinutes', 'price'],
};

/** clients-and-reports.md "Audit log": owners and managers read who changed what. */
export async function auditLogRoutes(app: App): Promise<void> {
  app.get(
    '/businesses/:slug/audit-log',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorListAuditLog',
        summary: 'Who changed what: every write of the operator API and every guest action on the manage page, newest first',
        description:
          "Each entry names the actor (a member with their role, the platform operator, or a guest), the action, its target, the request id and the names of the fields sent (never their values: no secret, password, token, phone or email is kept). `actor` filters by actor type (`member`, `operator`, `guest`) or a member's user id; `action` by an action (`booking.cancel`) or a resource (`booking`); `from`/`to` are UTC dates. Kept 12 months. Page with `meta.cursor`.",
        params: Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) }),
        querystring: Type.Object({
          actor: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 100,
              description: "an actor type (`member`, `operator`, `guest`) or a member's user id",
            }),
          ),
          action: Type.Optional(
            Type.String({ minLength: 1, maxLength: 100, description: 'an action (`booking.cancel`) or a resource (`booking`)' }),
          ),
          from: Type.Optional(DATE),
          to: Type.Optional(DATE),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'page size' })),
          cursor: Type.Optional(Type.String({ maxLength: 2048, description: 'meta.cursor of the previous page' })),
        }),
        response: responses(
          200,
          Type.Object({ entries: Type.Array(AuditEntry) }),
          [...OPERATOR_ERRORS, 'request.not_found', 'request.invalid_cursor'],
          { description: 'One page of entries.', example: { entries: [example] }, meta: { cursor: CURSOR_EXAMPLE } },
        ),
      },
    },
    async (request) => {
      const { actor, action, from, to, limit, cursor } = request.query;
      const page = await listAuditLog(app.ctx.db, {
        slug: request.params.slug,
        secret: app.ctx.serverSecret,
        actor,
        action,
        from,
        to,
        limit: limit ?? 50,
        cursor,
      });
      return ok(request, { entries: page.rows }, page.cursor ? { cursor: page.cursor } : undefined);
    },
  );
}
