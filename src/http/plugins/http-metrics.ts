import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../metrics.ts';

/**
 * Counts every answer by route pattern (never the raw URL: ids and query strings would make a new
 * series each), method and status. Unknown paths share the one label `unmatched`.
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    const labels = { route, method: request.method, status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
}
