import type { JobWorker } from '../jobs/worker.ts';
import { startJobWorker } from '../jobs/start.ts';
import type { JobDeps } from '../jobs/handlers/index.ts';
import type { Metrics } from '../metrics.ts';
import type { Db } from '../store/db.ts';
import type { Logger } from 'pino';
import type { Resolver } from './dispatcher.ts';

export { DEFAULT_CONCURRENCY, DEFAULT_POLL_MS } from '../jobs/worker.ts';

/**
 * The worker under its former name: webhook delivery is one kind of the generic job worker
 * (src/jobs/, docs/jobs.md), and this module keeps the options and entry point the API, the
 * standalone worker's callers, the bench and the webhook tests have always used.
 */
export interface WorkerOptions {
  db: Db;
  /** the webhook settings, and those of guest messages, which this worker also sends */
  config: JobDeps['config'];
  logger?: Logger | undefined;
  metrics?: Metrics | undefined;
  /** DNS for the connect-time address check; tests map names to 127.0.0.1 with it */
  resolver?: Resolver | undefined;
  concurrency?: number;
  pollIntervalMs?: number;
  /** how long a claim holds a delivery (default: twice WEBHOOK_TIMEOUT_MS plus a second) */
  leaseMs?: number;
  random?: () => number;
  /** the hourly purge (a recurring job); on by default */
  housekeeping?: boolean;
}

export type WebhookWorker = JobWorker;

/** Builds and starts the job worker with every standard kind; `stop()` it on shutdown. */
export function startWebhookWorker(opts: WorkerOptions): Promise<WebhookWorker> {
  return startJobWorker({
    db: opts.db,
    config: opts.config,
    logger: opts.logger,
    metrics: opts.metrics,
    resolver: opts.resolver,
    concurrency: opts.concurrency,
    pollIntervalMs: opts.pollIntervalMs,
    webhookLeaseMs: opts.leaseMs,
    random: opts.random,
    housekeeping: opts.housekeeping,
  });
}
