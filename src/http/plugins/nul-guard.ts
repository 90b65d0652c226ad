import type { FastifyInstance } from 'fastify';
import { invalidField } from '../../domain/errors.ts';

/** The path of the first string holding a NUL character, which PostgreSQL text cannot store. */
function findNul(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (depth > 32 || value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000')) return `${path}.${k.replaceAll('\u0000', '\\0')}`;
    const hit = findNul(v, `${path}.${k}`, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const hit = findNul(request.params, 'path') ?? findNul(request.query, 'query') ?? findNul(request.body, 'body');
    if (hit) throw invalidField(hit, 'must not contain a NUL character');
  });
}
