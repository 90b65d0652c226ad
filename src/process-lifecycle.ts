/**
 * What every entry point (the API in main.ts, a worker in worker.ts) does alike: load the validated
 * configuration or exit 78 naming the variable, make the logger, exit with one line and a code of
 * its own when the start fails for a reason the operator can fix, and stop gracefully on SIGTERM or
 * SIGINT within a bound.
 */
import type { Logger } from 'pino';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createLogger } from './logger.ts';
import { describeStartupFailure, EXIT } from './startup-failure.ts';

const SHUTDOWN_LIMIT_MS = 15_000;

export function startProcess(): { config: Config; log: Logger } {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(EXIT.config);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  if (config.webhookAllowPrivateTargets) {
    log.warn('WEBHOOK_ALLOW_PRIVATE_TARGETS is on: webhooks may reach loopback and private addresses (development only)');
  }
  return { config, log };
}

/**
 * For `.catch()` on a start-up step: a known cause (DATA_DIR locked, port in use, PostgreSQL
 * unreachable, missing or refusing the login) prints one line on stderr and exits with its code
 * (startup-failure.ts); anything else is rethrown and ends the process with its stack trace.
 */
export function exitOnStartupFailure(config: Config): (err: unknown) => never {
  return (err) => {
    const failure = describeStartupFailure(err, config);
    if (!failure) throw err;
    console.error(failure.line);
    process.exit(failure.code);
  };
}

/**
 * Runs `stop` once on the first SIGTERM or SIGINT, then exits 0 (1 if it throws, or if it takes
 * longer than 15 s; whatever it left unfinished is then covered by leases and transactions).
 */
export function stopOnSignals(log: Logger, what: string, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, `${what} stopping: finishing the work in flight`);
    const force = setTimeout(() => {
      log.error(`${what} took over ${SHUTDOWN_LIMIT_MS / 1000} s to stop; exiting`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    force.unref();
    try {
      await stop();
      log.info(`${what} stopped`);
      process.exit(0);
    } catch (err) {
      log.error({ err }, `error while stopping the ${what}`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
