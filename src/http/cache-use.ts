import type { FastifyRequest } from 'fastify';
import type { CacheUse } from '../use-cases/read-cache.ts';
import type { App } from './context.ts';
import { authOf } from './plugins/auth.ts';

/** The caches and the versions this public request learnt before it read anything (src/cache/). */
export function cacheUse(app: App, request: FastifyRequest): CacheUse {
  return {
    caches: app.ctx.caches,
    businessId: authOf(request).businessId,
    version: request.businessVersion,
    occupancy: request.occupancyVersion,
  };
}
