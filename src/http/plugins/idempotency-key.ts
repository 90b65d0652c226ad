import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.ts';

// RFC 4122 layout with version 1-5 and the RFC variant (8, 9, a, b).
const UUID_V1_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isValidIdempotencyKey(value: string): boolean {
  return UUID_V1_V5.test(value);
}

/** The header's form is checked before the body (decisions.md order); replay logic lives elsewhere. */
export function registerIdempotencyKeyCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (access?.surface !== 'public' || access.idempotentOperation === undefined) return;
    const raw = request.headers['idempotency-key'];
    if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) {
      throw new AppError('idempotency.key_required');
    }
    if (typeof raw !== 'string' || !isValidIdempotencyKey(raw.trim())) {
      throw new AppError('idempotency.key_invalid');
    }
  });
}
