import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.ts';
import { requiredRoles, roleAllows } from '../../domain/members/roles.ts';
import { originCheck, sessionCookieName } from '../../domain/members/session-policy.ts';
import { businessOfRoute, sessionOfCookie } from '../../use-cases/accounts/authenticate.ts';
import type { OperatorPrincipal, RouteAccess } from '../context.ts';
import { bearerOf, hasOperatorToken } from './auth.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

type OperatorAccess = Extract<RouteAccess, { surface: 'operator' }>;

/**
 * Authorisation of `/admin/v1`, decided from the route's `config.access` alone (business-side.md
 * "Principals"): who calls (platform token or member session), whether the business the route
 * touches is one of the member's, and whether their role there may call it. Handlers never check.
 *
 * Order: credential (401), origin of a cookie write (403 auth.origin_denied), business
 * (403 auth.scope_mismatch), role (403 auth.insufficient_capability). A member never learns whether
 * a resource of another business exists: unknown and foreign answer alike.
 */
export function registerOperatorAuth(app: FastifyInstance): void {
  const { config, db } = app.ctx;
  const cookieName = sessionCookieName(config.publicBaseUrl);
  app.decorateRequest('principal', null);

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (access?.surface === 'account') {
      if (access.needs === 'none') {
        // Sign-in, acceptance and password reset carry no cookie yet; a foreign page posting them
        // (login CSRF) is refused when the browser names its origin. curl and servers name none and pass.
        const o = originCheck(request.headers, config.publicBaseUrl);
        if (o.present && !o.same) throw new AppError('auth.origin_denied');
        return;
      }
      const session = await sessionOfCookie(db, request.cookies[cookieName]);
      if (!session) throw new AppError('auth.invalid_key', 'Not signed in, or the session has ended.');
      refuseForeignCookieWrite(request, config.publicBaseUrl);
      request.principal = { kind: 'member', session };
      return;
    }
    if (access?.surface !== 'operator') return;

    const principal = await principalOf(request);
    request.principal = principal;
    if (principal.kind === 'platform') return;
    refuseForeignCookieWrite(request, config.publicBaseUrl);
    await authoriseMember(request, access, principal.session);
  });

  async function principalOf(request: FastifyRequest): Promise<OperatorPrincipal> {
    if (bearerOf(request) !== undefined) {
      // A Bearer header is the platform token or nothing; a cookie beside it is not consulted.
      if (config.adminToken === undefined) {
        throw new AppError('auth.invalid_key', 'The operator token is disabled: set ADMIN_TOKEN to enable it, or sign in.');
      }
      if (!hasOperatorToken(request, config.adminToken)) throw new AppError('auth.invalid_key');
      return { kind: 'platform' };
    }
    const session = await sessionOfCookie(db, request.cookies[cookieName]);
    if (!session) {
      throw new AppError('auth.invalid_key', 'Send the operator token as a Bearer header, or sign in with POST /admin/v1/session.');
    }
    return { kind: 'member', session };
  }

  async function authoriseMember(
    request: FastifyRequest,
    access: OperatorAccess,
    session: Extract<OperatorPrincipal, { kind: 'member' }>['session'],
  ): Promise<void> {
    const denied = (role?: string) =>
      new AppError('auth.insufficient_capability', 'Your role may not do this.', {
        required: requiredRoles(access.roles),
        ...(role !== undefined ? { granted: role } : {}),
      });
    if (access.business === 'none') {
      // A route about no one business (the list of businesses): any membership with a role that
      // may call it will do; the handler narrows the answer to the member's businesses.
      if (!session.memberships.some((m) => roleAllows(access.roles, m.role))) throw denied();
      return;
    }
    const value = (request.params as Record<string, string | undefined>)[access.business];
    const businessId = await businessOfRoute(db, session, access.business, value);
    const membership = businessId === undefined ? undefined : session.memberships.find((m) => m.businessId === businessId);
    if (!membership) throw new AppError('auth.scope_mismatch', 'This belongs to a business you are not a member of.');
    if (!roleAllows(access.roles, membership.role)) throw denied(membership.role);
  }
}

function refuseForeignCookieWrite(request: FastifyRequest, publicBaseUrl: string): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (!originCheck(request.headers, publicBaseUrl).same) throw new AppError('auth.origin_denied');
}

/** The signed-in member of an account or member-called operator route; the hook guarantees it. */
export function memberOf(request: FastifyRequest) {
  const p = request.principal;
  if (p?.kind !== 'member') throw new Error('memberOf used on a route without a member session');
  return p.session;
}

/** The businesses the caller of a `business: 'none'` route may see. */
export function visibleBusinesses(request: FastifyRequest): 'all' | string[] {
  const p = request.principal;
  if (p === null) throw new Error('visibleBusinesses used on a route without operator access');
  if (p.kind === 'platform') return 'all';
  return p.session.memberships.map((m) => m.businessId);
}
