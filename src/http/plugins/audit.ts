import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUDIT_ACTIONS, fieldNamesOf, type NewAuditEntry, targetIdOf, targetTypeOf } from '../../domain/audit/actions.ts';
import { businessOfParam, recordAudit } from '../../use-cases/audit/record.ts';
import { openapiPath } from '../route-table.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The action of a request's route, or undefined for a read or a route outside the operator API. */
function actionOf(request: FastifyRequest): string | undefined {
  if (READS.has(request.method) || request.routeOptions.config.access?.surface !== 'operator') return undefined;
  const key = `${request.method} ${openapiPath(request.routeOptions.url ?? '').replace(/^\/admin\/v1/, '')}`;
  return AUDIT_ACTIONS[key] ?? undefined;
}

/**
 * The audit log of the operator API (clients-and-reports.md "Audit log", docs/clients-and-privacy.md):
 * before a write runs, the business it concerns is found from the route's parameter (a deleted
 * record cannot say it afterwards); once it has succeeded, one entry names who (the member with
 * their role, or the platform operator), the action, the target, the request id and the names of
 * the fields sent. Never a value: no secret, token, password, phone or email can reach it. A
 * failure to record is logged and does not turn the done write into an error.
 */
export function registerAudit(app: FastifyInstance): void {
  const { db } = app.ctx;
  app.decorateRequest('audit', undefined);

  app.addHook('preHandler', async (request) => {
    const action = actionOf(request);
    if (!action) return;
    const access = request.routeOptions.config.access;
    const locator = access?.surface === 'operator' ? access.business : 'none';
    const value = (request.params as Record<string, string | undefined>)[locator];
    request.audit = { action, businessId: (await businessOfParam(db, locator, value)) ?? null };
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const audit = request.audit;
    if (!audit || reply.statusCode >= 400) return payload;
    let data: unknown;
    try {
      data = (JSON.parse(String(payload)) as { data?: unknown }).data;
    } catch {
      data = undefined;
    }
    // a created business names itself only in the answer
    const businessId = audit.businessId ?? ((data as { business?: { id?: string } } | undefined)?.business?.id || null);
    if (!businessId) return payload;
    const p = request.principal;
    const actor: NewAuditEntry['actor'] =
      p?.kind === 'member'
        ? {
            type: 'member',
            id: p.session.userId,
            name: p.session.name || null,
            role: p.session.memberships.find((m) => m.businessId === businessId)?.role ?? null,
          }
        : { type: 'operator', id: null, name: 'Platform operator', role: null };
    const params = request.params as Record<string, string | undefined>;
    try {
      await recordAudit(db, {
        businessId,
        actor,
        action: audit.action,
        target: { type: targetTypeOf(audit.action), id: targetIdOf(params, data, businessId) },
        requestId: request.id,
        fields: fieldNamesOf(request.body),
      });
    } catch (err) {
      request.log.error({ action: audit.action, reason: err instanceof Error ? err.message : 'unknown' }, 'audit entry not recorded');
    }
    return payload;
  });
}
