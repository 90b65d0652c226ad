/**
 * GET /metrics of a webhook worker run as its own process (`npm run worker` with
 * WORKER_METRICS_PORT): what an API process serves at its /metrics — the same operator token, the
 * same Prometheus text, errors in the same envelope (the API's error handling) — without the API
 * around it.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { AppError } from '../domain/errors.ts';
import type { Metrics } from '../metrics.ts';
import { hasOperatorToken } from './plugins/auth.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { clientErrorHandler } from './client-errors.ts';
import { genRequestId } from './request-id.ts';

export async function startWorkerMetricsServer(o: {
  host: string;
  port: number;
  adminToken: string | undefined;
  metrics: Metrics;
}): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    logger: false,
    genReqId: genRequestId,
    clientErrorHandler: clientErrorHandler(() => ({ log: app.log, metrics: o.metrics })),
  });
  registerErrorHandling(app);
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  app.get('/metrics', async (request, reply) => {
    if (!hasOperatorToken(request, o.adminToken)) {
      throw new AppError(
        'auth.invalid_key',
        o.adminToken === undefined ? 'Metrics are disabled: set ADMIN_TOKEN to enable them.' : undefined,
      );
    }
    return reply.type(o.metrics.registry.contentType).send(await o.metrics.registry.metrics());
  });
  try {
    await app.listen({ host: o.host, port: o.port });
  } catch (err) {
    await app.close();
    throw err;
  }
  return app;
}
