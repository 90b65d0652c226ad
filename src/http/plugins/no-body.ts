import type { FastifyInstance } from 'fastify';
import { invalidField } from '../../domain/errors.ts';

/**
 * Request bodies are strict (decisions.md), also for the calls that take none (cancel, rotate,
 * delete, the operator's accept/decline …): a body with anything in it is refused, so a client that
 * thinks it is sending a reason or an option learns it is not read. No body, JSON `null` and `{}`
 * are all "no body". Runs with the schema checks, for routes that declare no body schema.
 */
export function registerNoBody(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.schema?.body !== undefined) return;
    const body: unknown = request.body;
    if (body === undefined || body === null) return;
    if (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return;
    throw invalidField('body', 'must be empty: this call takes no body');
  });
}
