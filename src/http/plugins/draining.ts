import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.ts';
import { errorEnvelope } from '../envelope.ts';

/**
 * A request that reaches an instance already closing (pipelined, or on a keep-alive connection still
 * in use) is answered at once, in the envelope like every answer, retryable, with the connection
 * closed so the client's retry goes elsewhere. Fastify's own answer for this case (its
 * return503OnClosing, turned off in app.ts) is a bare JSON 503 outside the envelope. The closed
 * catalog has no 503 for it: `internal.error` (500, retryable) is the code (decisions.md).
 */
export function registerDraining(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    const err = new AppError('internal.error', 'This instance is shutting down: retry the request.');
    return reply.status(err.status).header('connection', 'close').header('x-request-id', request.id).send(errorEnvelope(request, err));
  });
}
