/**
 * `npm run worker`: the job worker (docs/jobs.md: webhook deliveries, housekeeping, every kind
 * registered in src/jobs/handlers/index.ts) as its own process (run the API with
 * WEBHOOK_WORKER=false and NOTIFICATION_WORKER=false then). Several may run against one PostgreSQL database. SIGTERM lets the
 * runs in flight finish (each is cut at its timeout, a webhook attempt at WEBHOOK_TIMEOUT_MS) and
 * records them; a SIGKILL leaves claims that lapse after their lease, and another worker makes
 * those runs again.
 */
import type { AddressInfo } from 'node:net';
import { startWorkerMetricsServer } from './http/worker-metrics.ts';
import { Metrics } from './metrics.ts';
import { exitOnStartupFailure, startProcess, stopOnSignals } from './process-lifecycle.ts';
import { openDb } from './store/open.ts';
import { startJobWorker } from './jobs/start.ts';

const { config, log } = startProcess();
if (!config.databaseUrl) {
  log.warn(
    'no DATABASE_URL: this worker opens the embedded PGlite database, which only one process may open; prefer WEBHOOK_WORKER=true in the API',
  );
}

const failed = exitOnStartupFailure(config);
// The embedded database's DATA_DIR lock applies here too: never beside a running API on it.
const db = await openDb(config).catch(failed);
const metrics = config.workerMetricsPort === undefined ? undefined : new Metrics();
// Listening first: a port that cannot be had stops the process before it claims any delivery.
const metricsServer =
  metrics && config.workerMetricsPort !== undefined
    ? await startWorkerMetricsServer({ host: config.host, port: config.workerMetricsPort, adminToken: config.adminToken, metrics }).catch(
        async (err: unknown) => {
          await db.close().catch(() => {});
          return failed(err);
        },
      )
    : undefined;
// NOTIFICATION_WORKER=false leaves guest messages to other workers (docs/guest-messages.md).
const worker = await startJobWorker({
  db,
  config,
  metrics,
  notifications: config.notificationWorker,
  logger: log.child({ component: 'job-worker' }),
});
// The port actually bound (WORKER_METRICS_PORT=0 picks a free one).
const metricsPort = metricsServer ? (metricsServer.server.address() as AddressInfo).port : undefined;
// The message keeps the process's former name, which operators' log searches know.
log.info({ pid: process.pid, database: db.kind, ...(metricsPort === undefined ? {} : { metricsPort }) }, 'webhook worker started');
if (metricsServer && !config.adminToken) log.warn('WORKER_METRICS_PORT is set but ADMIN_TOKEN is not: /metrics refuses every scrape');

// A SIGKILL or a stop that overruns leaves claims that lapse after their lease.
stopOnSignals(log, 'webhook worker', async () => {
  await metricsServer?.close();
  await worker.stop();
  await db.close();
});
