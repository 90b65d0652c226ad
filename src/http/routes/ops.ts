import type { App } from '../context.ts';
import { Type } from 'typebox';
import { AppError } from '../../domain/errors.ts';
import { ok } from '../envelope.ts';
import { responses } from '../schemas/common.ts';

const Status = Type.Object({ status: Type.String() });

export async function opsRoutes(app: App): Promise<void> {
  app.get(
    '/healthz',
    {
      config: { access: { surface: 'open' } },
      schema: { tags: ['operations'], summary: 'The process is up', response: responses(200, Status, []) },
    },
    async (request) => ok(request, { status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      config: { access: { surface: 'open' } },
      schema: {
        tags: ['operations'],
        summary: 'The database answers',
        response: responses(200, Status, ['internal.error']),
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
