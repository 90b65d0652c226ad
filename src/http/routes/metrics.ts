import type { App } from '../context.ts';
import { OPERATOR, OPERATOR_SCHEMA } from './operator/access.ts';

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
      config: OPERATOR,
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorGetMetrics',
        summary: "This process's metrics in the Prometheus text format",
        response: {
          200: {
            description: 'Prometheus text exposition format 0.0.4',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          401: {
            description: '`auth.invalid_key`',
            content: { 'application/json': { schema: { $ref: 'ErrorEnvelope#' } } },
          },
        },
      },
    },
    async (_request, reply) => {
      const text = await app.ctx.metrics.registry.metrics();
      return reply.type(app.ctx.metrics.registry.contentType).send(text);
    },
  );
}
