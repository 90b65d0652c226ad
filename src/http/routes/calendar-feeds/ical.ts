import type { FastifyReply } from 'fastify';
import { FEED_REFRESH_SECONDS, matchesEtag } from '../../../domain/calendar-feeds/ics.ts';
import { tokenOfFeedFile } from '../../../domain/calendar-feeds/token.ts';
import { readCalendarFeed } from '../../../use-cases/calendar-feeds/read.ts';
import type { App } from '../../context.ts';
import { FeedFileParams } from '../../schemas/calendar-feed.ts';

/**
 * `private`: the feed is one salon's secret, no shared cache may keep it; five minutes, the feed's
 * own REFRESH-INTERVAL, so a client that honours either asks again no sooner.
 */
const FEED_CACHE_CONTROL = `private, max-age=${FEED_REFRESH_SECONDS}`;

/** The one 404 of `/ical/…`, also for a path the router refuses before any route (app.ts). */
export function sendFeedNotFound(reply: FastifyReply): FastifyReply {
  return reply
    .status(404)
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send('No such calendar feed: the address is wrong, or the salon has issued a new one that replaced it.\n');
}

/**
 * GET /ical/{token}.ics, the feed a calendar app subscribes to. The token in the URL is the only
 * credential. Not an API operation (no envelope, not JSON), so it is left out of the OpenAPI
 * document, as the dashboard and the payment page are; docs/calendar-feeds.md describes it.
 * A calendar app shows nothing of an error body, only acts on the status: an unknown, malformed
 * or ended token is a plain-text 404, and a matching If-None-Match a 304 without a body.
 */
export async function icalRoutes(app: App): Promise<void> {
  app.get(
    '/ical/:file',
    {
      config: { access: { surface: 'open' } },
      schema: { hide: true, params: FeedFileParams },
    },
    async (request, reply) => {
      const token = tokenOfFeedFile(request.params.file);
      const feed =
        token === undefined
          ? undefined
          : await readCalendarFeed({ db: app.ctx.db, publicBaseUrl: app.ctx.config.publicBaseUrl, now: app.ctx.clock() }, token);
      if (!feed) return sendFeedNotFound(reply);
      void reply.header('etag', feed.etag).header('cache-control', FEED_CACHE_CONTROL);
      if (matchesEtag(request.headers['if-none-match'], feed.etag)) return reply.status(304).send();
      return reply.type('text/calendar; charset=utf-8').send(feed.body);
    },
  );
}
