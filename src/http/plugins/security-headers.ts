import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The CSP of an HTML page whose route sets none (the API explorer at /docs, the explorer's OAuth
 * redirect page, a redirect): only this server's own scripts, styles and fetches, `data:` images
 * (the explorer's logo and icons), never framed. /docs loads nothing inline and nothing from a CDN
 * (@fastify/swagger-ui serves Swagger UI's files itself), so it works under this policy.
 */
export const DEFAULT_HTML_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** `/admin/v1` and everything under it, matched on the path as sent (a 404 there too). */
export function isOperatorPath(url: string): boolean {
  const path = url.split('?', 1)[0]!;
  return path === '/admin/v1' || path.startsWith('/admin/v1/');
}

/**
 * Whether an answer belongs to `/admin/v1`: by the route it matched (the router decodes the path,
 * so `/%61dmin/v1/session` is the session route), else by the path, decoded when it can be.
 */
function isOperatorAnswer(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route !== undefined) return isOperatorPath(route);
  if (isOperatorPath(request.url)) return true;
  try {
    return isOperatorPath(decodeURIComponent(request.url.split('?', 1)[0]!));
  } catch {
    return false;
  }
}

function isHtmlOrRedirect(reply: FastifyReply): boolean {
  const type = reply.getHeader('content-type');
  if (typeof type === 'string' && /^text\/html\b/i.test(type)) return true;
  return reply.statusCode >= 300 && reply.statusCode < 400;
}

/**
 * Headers no route may forget, set in `onSend` (the last step every answer passes, the error
 * handler's, the 404's and the framework's own included):
 * - every `/admin/v1` answer is `Cache-Control: no-store`: it carries members, guests and sessions,
 *   which no browser or proxy cache may keep;
 * - every HTML answer (and redirect) is never framed: `X-Frame-Options: DENY` and DEFAULT_HTML_CSP,
 *   unless the route set a CSP of its own (the dashboard, the deposit page; pages meant to be
 *   embedded name their own `frame-ancestors`), which then is the route's whole say.
 * Malformed HTTP never reaches Fastify; src/http/client-errors.ts writes no-store itself.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (isOperatorAnswer(request)) void reply.header('cache-control', 'no-store');
    if (isHtmlOrRedirect(reply) && !reply.hasHeader('content-security-policy')) {
      void reply.header('content-security-policy', DEFAULT_HTML_CSP).header('x-frame-options', 'DENY');
      if (!reply.hasHeader('x-content-type-options')) void reply.header('x-content-type-options', 'nosniff');
    }
    return payload;
  });
}
