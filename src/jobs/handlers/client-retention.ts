import type { Logger } from 'pino';
import type { Db } from '../../store/db.ts';
import { eraseExpiredClients } from '../../use-cases/clients/retention.ts';
import type { JobHandler } from '../handler.ts';

export const CLIENT_RETENTION_KIND = 'clients.retention';
const DAY_MS = 86_400_000;

/**
 * Once a day, one recurring job for all workers: clients past their business's retention are
 * erased (docs/clients-and-privacy.md). Idempotent: an erased client is not found again.
 */
export function clientRetentionHandler(deps: {
  db: Db;
  logger?: Logger | undefined;
  clock?: (() => Date) | undefined;
}): JobHandler<Record<string, never>> {
  return {
    kind: CLIENT_RETENTION_KIND,
    retryDelaysMs: [60_000, 15 * 60_000, 60 * 60_000],
    leaseMs: 30 * 60_000,
    everyMs: DAY_MS,
    parse: () => ({}),
    async run() {
      const erased = await eraseExpiredClients(deps.db, deps.clock?.() ?? new Date());
      if (erased > 0) deps.logger?.info({ erased }, 'erased clients past retention');
      return undefined;
    },
  };
}
