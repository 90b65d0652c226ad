import type { App } from '../context.ts';
import { Type } from 'typebox';
import { AppError, type ErrorCode } from '../../domain/errors.ts';
import { ok } from '../envelope.ts';
import { responses } from '../schemas/common.ts';

/** Any request can be malformed HTTP (headers too large, say): client-errors.ts answers it in the envelope. */
const OPEN_ERRORS: readonly ErrorCode[] = ['request.validation_failed'];

const Status = Type.Object({ status: Type.String({ description: '`ok` (healthz) or `ready` (readyz)' }) });

const Readiness = Type.Object({
  status: Type.Literal('ready'),
  checks: Type.Object(
    {
      database: Type.Literal('ok', { description: 'The database answered a query (else the answer is 500).' }),
      redis: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('absent')], {
        description:
          "`ok`: Redis answered a PING within RATE_LIMIT_TIMEOUT_MS. `degraded`: it did not; the service still works (the public API's rate limits let requests through uncounted, the sign-in limits count in each process) and stays in traffic. `absent`: no Redis is configured (REDIS_URL unset); the limits are this process's own.",
      }),
    },
    { description: 'What the readiness check looked at.' },
  ),
});

type RedisCheck = 'ok' | 'degraded' | 'absent';

export async function opsRoutes(app: App): Promise<void> {
  app.get(
    '/healthz',
    {
      config: { access: { surface: 'open' } },
      schema: {
        tags: ['operations'],
        operationId: 'getHealth',
        summary: 'The process is up',
        description: 'Liveness: answers as long as the process serves HTTP, without touching the database.',
        response: responses(200, Status, OPEN_ERRORS, { description: 'The process is up.', example: { status: 'ok' } }),
      },
    },
    async (request) => ok(request, { status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      config: { access: { surface: 'open' } },
      schema: {
        tags: ['operations'],
        operationId: 'getReadiness',
        summary: 'The database answers',
        description:
          'Readiness: the process is up and its database answers a query; a load balancer sends traffic only while this is 200. Redis is reported in `checks.redis` without changing the status: without it the service still works.',
        response: responses(200, Readiness, [...OPEN_ERRORS, 'internal.error'], {
          description: 'The database answers.',
          example: { status: 'ready', checks: { database: 'ok', redis: 'ok' } },
        }),
      },
    },
    async (request) => {
      try {
        await app.ctx.db.query('SELECT 1');
      } catch (err) {
        request.log.warn({ err }, 'readiness check failed');
        throw new AppError('internal.error', 'The database is unreachable.');
      }
      const store = app.ctx.rateLimits;
      const redis: RedisCheck = store.ping === undefined ? 'absent' : (await store.ping()) ? 'ok' : 'degraded';
      return ok(request, { status: 'ready' as const, checks: { database: 'ok' as const, redis } });
    },
  );
}
