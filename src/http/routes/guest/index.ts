import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../../domain/errors.ts';
import type { App } from '../../context.ts';
import { toAppError } from '../../plugins/errors.ts';
import { ASSET_PREFIX, findAsset } from './assets.ts';
import { bookingSteps } from './booking.tsx';
import { bookingWrites } from './booking-writes.tsx';
import { doneRoutes } from './done.tsx';
import { manageRoutes } from './manage.tsx';
import { waitlistPages } from './waitlist.tsx';
import { isCrossSitePost } from './guards.ts';
import { sendMessage } from './kit.tsx';

/** A posted form: 16 KB is far more than the details form needs. */
const FORM_LIMIT = 16 * 1024;

/**
 * The guest pages (`/book/...`, `/manage/...`, docs/guest-pages.md): server-rendered HTML in their
 * own plugin, with their own body parser, hooks and error pages. Their routes declare
 * `{ surface: 'guest' }`, which the API's global hooks (key, rate limit, Idempotency-Key) pass by;
 * the per-address limits, the origin check and the form token are this plugin's.
 */
export async function guestRoutes(app: App): Promise<void> {
  // The API's one parser is JSON; a page posts forms. Values are strings (repeated names: arrays).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_request, body, done) => {
    const form: Record<string, string | string[]> = Object.create(null);
    for (const [k, v] of new URLSearchParams(body as string)) {
      const had = form[k];
      form[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
    }
    done(null, form);
  });

  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'POST' && isCrossSitePost(request, app.ctx.config.publicBaseUrl)) {
      return sendMessage(reply, request, 403, (t) => ({ title: t.refusedTitle, text: t.refusedText }));
    }
  });

  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => errorPage(app, err, request, reply));

  app.get(`${ASSET_PREFIX}:name`, { config: { access: { surface: 'guest' } }, schema: { hide: true } }, async (request, reply) => {
    const asset = findAsset((request.params as { name: string }).name);
    if (!asset) return sendMessage(reply, request, 404, (t) => ({ title: t.notFoundTitle, text: t.notFoundText }));
    // Named by content: a changed file has a new name, so this one may be kept for a year.
    return reply
      .headers({ 'content-type': asset.type, 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' })
      .send(asset.body);
  });

  await app.register(bookingSteps);
  await app.register(bookingWrites);
  await app.register(doneRoutes);
  await app.register(manageRoutes);
  await app.register(waitlistPages);

  // Anything else under the guest paths is the guest's 404 page, not the API's JSON.
  for (const url of ['/book/*', '/manage/*', '/claim/*', '/waitlist/*']) {
    app.route({
      method: ['GET', 'POST'],
      url,
      config: { access: { surface: 'guest' } },
      schema: { hide: true },
      handler: async (request, reply) => sendMessage(reply, request, 404, (t) => ({ title: t.notFoundTitle, text: t.notFoundText })),
    });
  }
}

/** `/book/...` and `/manage/...`: the guest pages' paths, as sent. */
export function isGuestPath(url: string): boolean {
  return (
    url.startsWith('/book/') ||
    url.startsWith('/book-assets/') ||
    url.startsWith('/manage/') ||
    url.startsWith('/claim/') ||
    url.startsWith('/waitlist/')
  );
}

/** The guest's 404 page, for a guest path the router cannot even read (bad percent-encoding). */
export function sendGuestNotFound(reply: FastifyReply, request: FastifyRequest): FastifyReply {
  return sendMessage(reply, request, 404, (t) => ({ title: t.notFoundTitle, text: t.notFoundText }));
}

/** Every failure of a guest route as a page in words: never JSON, and bad input never a 500. */
function errorPage(app: App, err: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const e = toAppError(err);
  // A pool with no free connection comes back as internal.error with Retry-After (fromDbError).
  if (e.headers?.['retry-after'] !== undefined || e.code === 'idempotency.request_in_progress') {
    return sendMessage(reply.header('retry-after', '1'), request, 503, (t) => ({ title: t.busyTitle, text: t.busyText }));
  }
  if (e.code === 'internal.error') {
    request.log.error({ err, reqId: request.id }, 'unhandled error on a guest page');
    return sendMessage(reply, request, 500, (t) => ({ title: t.errorTitle, text: t.errorText }));
  }
  if (e.status === 404) return sendMessage(reply, request, 404, (t) => ({ title: t.notFoundTitle, text: t.notFoundText }));
  if (e.code === 'subscription.quota_exceeded')
    return sendMessage(reply, request, 403, (t) => ({ title: t.quotaTitle, text: t.quotaText }));
  if (e.status === 503 || (isAppError(err) && err.retryable)) {
    return sendMessage(reply, request, 503, (t) => ({ title: t.busyTitle, text: t.busyText }));
  }
  // Malformed input of any kind (a bad body type, a mangled token, a field too long): a 4xx page.
  const status = e.status >= 400 && e.status < 500 ? e.status : 400;
  void app;
  return sendMessage(reply, request, status, (t) => ({ title: t.badRequestTitle, text: t.badRequestText }));
}
