import type { App } from '../context.ts';
import { PLATFORM_ONLY } from './operator/access.ts';

/**
 * Prometheus scrape endpoint of this process. It sits behind the operator token (a scrape config
 * sends it as `authorization: { credentials: ... }`): route names, volumes and the outbox backlog
 * are the operator's business, not the public's. Each instance serves its own counters; Prometheus
 * adds them up across instances.
 */
export async function metricsRoutes(app: App): Promise<void> {
  app.get(
    '/metrics',
    {
      config: PLATFORM_ONLY,
      // Plain text, not the envelope, and not part of the public or operator API contract.
      schema: { hide: true },
    },
    async (_request, reply) => {
      const text = await app.ctx.metrics.registry.metrics();
      return reply.type(app.ctx.metrics.registry.contentType).send(text);
    },
  );
}
