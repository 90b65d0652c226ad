/**
 * `npm run worker`: one webhook delivery worker as its own process (run the API with
 * WEBHOOK_WORKER=false then). Several may run against one PostgreSQL database. SIGTERM lets the
 * attempts in flight finish (each is cut at WEBHOOK_TIMEOUT_MS) and records them; a SIGKILL leaves
 * claims that lapse after their lease, and another worker makes those attempts again.
 */
import { startProcess, stopOnSignals } from './process-lifecycle.ts';
import { openDb } from './store/open.ts';
import { startWebhookWorker } from './webhooks/worker.ts';

const { config, log } = startProcess();
if (!config.databaseUrl) {
  log.warn('no DATABASE_URL: this worker opens the embedded PGlite database, which only one process may open; prefer WEBHOOK_WORKER=true in the API');
}

const db = await openDb(config);
const worker = await startWebhookWorker({ db, config, logger: log.child({ component: 'webhook-worker' }) });
log.info({ pid: process.pid, database: db.kind }, 'webhook worker started');

// A SIGKILL or a stop that overruns leaves claims that lapse after their lease.
stopOnSignals(log, 'webhook worker', async () => {
  await worker.stop();
  await db.close();
});
