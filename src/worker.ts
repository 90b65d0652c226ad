/**
 * `npm run worker`: one webhook delivery worker as its own process (run the API with
 * WEBHOOK_WORKER=false then). Several may run against one PostgreSQL database. SIGTERM lets the
 * attempts in flight finish (each is cut at WEBHOOK_TIMEOUT_MS) and records them; a SIGKILL leaves
 * claims that lapse after their lease, and another worker makes those attempts again.
 */
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createLogger } from './logger.ts';
import { openDb } from './store/open.ts';
import { startWebhookWorker } from './webhooks/worker.ts';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`Configuration error: ${err.message}`);
    process.exit(78);
  }
  throw err;
}

const log = createLogger(config.logLevel);
if (config.webhookAllowPrivateTargets) {
  log.warn('WEBHOOK_ALLOW_PRIVATE_TARGETS is on: webhooks may reach loopback and private addresses (development only)');
}
if (!config.databaseUrl) {
  log.warn('no DATABASE_URL: this worker opens the embedded PGlite database, which only one process may open; prefer WEBHOOK_WORKER=true in the API');
}

const db = await openDb(config);
const worker = await startWebhookWorker({ db, config, logger: log.child({ component: 'webhook-worker' }) });
log.info({ pid: process.pid, database: db.kind }, 'webhook worker started');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'webhook worker stopping: finishing attempts in flight');
  const force = setTimeout(() => {
    log.error('webhook worker took over 15 s to stop; exiting (unfinished claims lapse after their lease)');
    process.exit(1);
  }, 15_000);
  force.unref();
  try {
    await worker.stop();
    await db.close();
    log.info('webhook worker stopped');
    process.exit(0);
  } catch (err) {
    log.error({ err }, 'error while stopping the webhook worker');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
