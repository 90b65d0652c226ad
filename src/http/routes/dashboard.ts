import { statSync } from 'node:fs';
import { join, posix } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import type { App } from '../context.ts';
import { DEFAULT_HTML_CSP } from '../plugins/security-headers.ts';

/** The built dashboard (`npm run build` writes it with Vite); the same path from src/ and from dist/. */
export const DASHBOARD_DIST = join(import.meta.dirname, '..', '..', '..', 'dashboard', 'dist');

/**
 * The dashboard's own pages may load only what this server serves: no inline script or style, no
 * third-party origin, no framing. Fetches go to /admin/v1 on the same origin. That is the origin's
 * default HTML policy, named here because the route sets it itself (with its other headers).
 */
export const DASHBOARD_CSP = DEFAULT_HTML_CSP;

const OPEN = { access: { surface: 'open' as const } };
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A page of the app is never stored: a signed-in member's screen must not outlive the session in a cache. */
const HTML_CACHING = 'no-store';

function securityHeaders(reply: FastifyReply): void {
  void reply
    .header('content-security-policy', DASHBOARD_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('x-frame-options', 'DENY');
}

/** A file of the build, or undefined: no dot segments, no dotfiles, nothing outside `root`. */
function builtFile(root: string, wildcard: string): string | undefined {
  if (wildcard === '' || wildcard.includes('\0') || wildcard.includes('\\')) return undefined;
  const rel = posix.normalize(wildcard);
  if (rel.startsWith('/') || rel.startsWith('..') || rel.split('/').some((s) => s.startsWith('.'))) return undefined;
  try {
    return statSync(join(root, rel)).isFile() ? rel : undefined;
  } catch {
    return undefined;
  }
}

/**
 * GET /dashboard/*: the single-page application. A file of the build is served as is (hashed
 * `assets/` immutable for a year, HTML `no-store`, anything else revalidated); any other path is a
 * page of the app, so it answers index.html (`no-store`: it names the current hashed assets, and a
 * member's page must not stay in a cache) and the client-side router draws it.
 * `/dashboard` redirects to `/dashboard/`, and so does `/` (GET and HEAD). Not part of the API: hidden
 * from the OpenAPI document.
 */
export async function dashboardRoutes(app: App, opts: { root?: string } = {}): Promise<void> {
  const root = opts.root ?? DASHBOARD_DIST;
  await app.register(fastifyStatic, { root, serve: false, dotfiles: 'deny', index: false, etag: true, lastModified: true });

  const handler = async (request: { url: string; params: unknown }, reply: FastifyReply) => {
    securityHeaders(reply);
    const path = request.url.split('?')[0]!;
    if (path === '/dashboard') {
      const query = request.url.slice(path.length);
      return reply.redirect(`/dashboard/${query}`, 301);
    }
    const wildcard = (request.params as { '*'?: string })['*'] ?? '';
    const file = builtFile(root, wildcard);
    if (file) {
      const caching = file.startsWith('assets/') ? IMMUTABLE : file.endsWith('.html') ? HTML_CACHING : 'no-cache';
      return reply.header('cache-control', caching).sendFile(file, { cacheControl: false });
    }
    if (builtFile(root, 'index.html') === undefined) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The dashboard is not built. Run `npm run build` (or `npm start`, which builds it when missing).\n');
    }
    // A missing asset is a 404, not the app: a stale page asking for an old hash must not get HTML.
    if (wildcard.startsWith('assets/')) return reply.status(404).type('text/plain; charset=utf-8').send('Not found.\n');
    return reply.header('cache-control', HTML_CACHING).sendFile('index.html', { cacheControl: false });
  };

  app.get('/dashboard', { schema: { hide: true }, config: OPEN }, handler);
  app.get('/dashboard/*', { schema: { hide: true }, config: OPEN }, handler);
  // The server's bare address opened in a browser: the dashboard, not a JSON "No such route".
  // 302, not 301: a browser keeps a permanent redirect forever, and `/` may serve something else one day.
  app.get('/', { schema: { hide: true }, config: OPEN }, async (_request, reply) => reply.redirect('/dashboard/', 302));
}
