import type { JobHandler } from './handler.ts';
import { registerStandardJobs, type JobDeps, type StandardKinds } from './handlers/index.ts';
import { JobRegistry } from './registry.ts';
import { TableQueue } from './table-queue.ts';
import { JobWorker } from './worker.ts';

export interface StartJobWorkerOptions extends JobDeps, StandardKinds {
  concurrency?: number | undefined;
  pollIntervalMs?: number | undefined;
  /** handlers beside the standard ones (a test's own kind) */
  extraHandlers?: ReadonlyArray<JobHandler<never>> | undefined;
}

/** The worker of the API process (WEBHOOK_WORKER) and of `npm run worker`: every standard kind. */
export async function startJobWorker(options: StartJobWorkerOptions): Promise<JobWorker> {
  // In the API process on PGlite, the worker's statements give way to the requests'.
  const opts = { ...options, db: options.db.background?.() ?? options.db };
  const registry = registerStandardJobs(new JobRegistry(), opts, opts);
  for (const h of opts.extraHandlers ?? []) registry.register(h as JobHandler<unknown>);
  const worker = new JobWorker({
    db: opts.db,
    // No handler of the job table: no claims of it, and no LISTEN connection for it.
    queues:
      registry.handlers.size === 0
        ? registry.queues
        : [...registry.queues, new TableQueue(opts.db, registry.handlers, opts.logger, opts.metrics)],
    logger: opts.logger,
    concurrency: opts.concurrency,
    pollIntervalMs: opts.pollIntervalMs,
  });
  await worker.start();
  return worker;
}
