import type { App } from '../context.ts';
import { Type } from 'typebox';
import { AppError, type ErrorCode } from '../../domain/errors.ts';
import { ok } from '../envelope.ts';
import { responses } from '../schemas/common.ts';

/** Any request can be malformed HTTP (headers too large, say): client-errors.ts answers it in the envelope. */
const OPEN_ERRORS: readonly ErrorCode[] = ['request.validation_failed'];

const Status = Type.Object({ status: Type.String({ description: '`ok` (healthz) or `ready` (readyz)' }) });

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
        description: 'Readiness: the process is up and its database answers a query; a load balancer sends traffic only while this is 200.',
        response: responses(200, Status, [...OPEN_ERRORS, 'internal.error'], {
          description: 'The database answers.',
          example: { status: 'ready' },
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
      return ok(request, { status: 'ready' });
    },
  );
}
