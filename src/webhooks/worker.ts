import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { nextStep } from '../domain/webhooks/retry-policy.ts';
import { decryptSigningSecret } from '../domain/webhooks/signing-secret.ts';
import type { Metrics } from '../metrics.ts';
import type { Db } from '../store/db.ts';
import { purgeExpiredKeys } from '../store/idempotency.ts';
import { purgeEndedHolds } from '../store/holds.ts';
import { countOutboxBacklog } from '../store/outbox-backlog.ts';
import { getServerSecret } from '../store/server-settings.ts';
import {
  OUTBOX_CHANNEL,
  claimDue,
  failWithoutAttempt,
  purgeOldDeliveries,
  recordAttempt,
  releaseLease,
  type ClaimedDelivery,
} from '../store/webhook-outbox.ts';
import { Dispatcher, type Resolver } from './dispatcher.ts';
import { attemptLeaseMs } from '../domain/webhooks/attempt-lease.ts';

/** Deliveries one worker has in flight at most: a slow receiver holds one slot, not the worker. */
export const DEFAULT_CONCURRENCY = 8;
/** The safety net under LISTEN/NOTIFY: a lost notification or another worker's retry waits at most this. */
export const DEFAULT_POLL_MS = 1000;
const HOUSEKEEPING_MS = 3_600_000;

export interface WorkerOptions {
  db: Db;
  config: Pick<Config, 'webhookTimeoutMs' | 'webhookRetryDelays' | 'webhookAllowPrivateTargets'>;
  logger?: Logger | undefined;
  metrics?: Metrics | undefined;
  /** DNS for the connect-time address check; tests map names to 127.0.0.1 with it */
  resolver?: Resolver | undefined;
  concurrency?: number;
  pollIntervalMs?: number;
  /**
   * How long a claim holds a delivery. Longer than any attempt can take (the attempt is cut at
   * WEBHOOK_TIMEOUT_MS), so only a dead or frozen worker's claim ever lapses.
   */
  leaseMs?: number;
  random?: () => number;
  /** purge of old delivery records and expired idempotency records (hourly); on by default */
  housekeeping?: boolean;
}

/**
 * The outbox worker: claims due deliveries (several workers, in one or many processes, share the
 * table safely), makes one attempt each through the Dispatcher and records the result and the
 * next state. Woken by the booking transaction's NOTIFY, by its own retry timers and by a modest
 * poll, so a lost notification delays a delivery by at most the poll interval.
 */
export class WebhookWorker {
  private readonly dispatcher: Dispatcher;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly random: () => number;
  private readonly inflight = new Set<Promise<void>>();
  private serverSecret: Buffer | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private housekeepingTimer: NodeJS.Timeout | undefined;
  private filling = false;
  private again = false;
  /** something may be due that no claim has looked at yet (a notification, a timer, a full claim) */
  private dirty = true;
  private stopping = false;
  /** retry times this worker scheduled, so it wakes for them without polling */
  private retryTimes: number[] = [];

  constructor(private readonly opts: WorkerOptions) {
    this.dispatcher = new Dispatcher({
      timeoutMs: opts.config.webhookTimeoutMs,
      allowPrivateTargets: opts.config.webhookAllowPrivateTargets,
      resolver: opts.resolver,
    });
    this.concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
    this.pollMs = opts.pollIntervalMs ?? DEFAULT_POLL_MS;
    this.leaseMs = opts.leaseMs ?? attemptLeaseMs(opts.config.webhookTimeoutMs);
    this.random = opts.random ?? Math.random;
  }

  async start(): Promise<void> {
    this.serverSecret = await getServerSecret(this.opts.db);
    this.opts.metrics?.setBacklogSource(() => countOutboxBacklog(this.opts.db));
    this.unlisten = await this.opts.db.listen(OUTBOX_CHANNEL, () => this.wake());
    if (this.opts.housekeeping !== false) {
      void this.housekeep();
      this.housekeepingTimer = setInterval(() => void this.housekeep(), HOUSEKEEPING_MS);
      this.housekeepingTimer.unref();
    }
    this.wake();
  }

  /** Looks for due deliveries now (a notification, a finished attempt, a timer). */
  wake(): void {
    if (this.stopping) return;
    this.dirty = true;
    if (this.filling) {
      this.again = true;
      return;
    }
    void this.fill();
  }

  /**
   * Stops claiming and lets the attempts in flight finish and be recorded (each is cut at the
   * timeout, so this is bounded). A SIGKILL instead leaves claims that lapse after the lease.
   */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearTimeout(this.timer);
    clearInterval(this.housekeepingTimer);
    try {
      await this.unlisten?.();
    } catch (err) {
      this.opts.logger?.warn({ err }, 'webhook worker: unlisten failed');
    }
    while (this.filling || this.inflight.size > 0) {
      await Promise.allSettled([...this.inflight]);
      if (this.filling) await new Promise((r) => setTimeout(r, 5));
    }
    await this.dispatcher.close();
  }

  private async fill(): Promise<void> {
    this.filling = true;
    try {
      do {
        this.again = false;
        while (!this.stopping && this.inflight.size < this.concurrency) {
          const want = this.concurrency - this.inflight.size;
          const rows = await claimDue(this.opts.db, want, this.leaseMs);
          for (const row of rows) this.run(row);
          if (rows.length < want) {
            this.dirty = false;
            break;
          }
        }
      } while (this.again && !this.stopping);
    } catch (err) {
      this.opts.logger?.error({ err }, 'webhook worker: claiming deliveries failed; retrying at the next poll');
    } finally {
      this.filling = false;
      this.schedule();
    }
  }

  private run(row: ClaimedDelivery): void {
    const p = this.deliver(row)
      .catch((err: unknown) => {
        // The claim stays until its lease lapses; then this attempt is made again.
        this.opts.logger?.error({ err, deliveryId: row.deliveryId, attempt: row.attempt }, 'webhook attempt could not be completed');
      })
      .finally(() => {
        this.inflight.delete(p);
        // A freed slot only needs a claim if the last one may have left due rows behind.
        if (this.dirty) this.wake();
      });
    this.inflight.add(p);
  }

  private async deliver(row: ClaimedDelivery): Promise<void> {
    const log = this.opts.logger;
    if (this.stopping) {
      await releaseLease(this.opts.db, row);
      return;
    }
    // The URL and secret as they are at this attempt (read by the claim): a changed URL or a
    // rotated secret applies to retries of older events.
    if (!row.target) {
      // The webhook was deleted: the delivery ends without an attempt.
      await failWithoutAttempt(this.opts.db, row);
      log?.info({ deliveryId: row.deliveryId, event: row.event }, 'webhook delivery failed: no webhook configured');
      return;
    }
    const timestamp = (JSON.parse(row.payload) as { timestamp?: unknown }).timestamp;
    const result = await this.dispatcher.send({
      url: row.target.url,
      secret: decryptSigningSecret(this.serverSecret!, row.target.secretCiphertext),
      payload: row.payload,
      deliveryId: row.deliveryId,
      event: row.event,
      timestamp: typeof timestamp === 'string' ? timestamp : '',
      attempt: row.attempt,
    });
    this.opts.metrics?.webhookAttempts.inc({ outcome: result.outcome });
    const next = nextStep(row.attempt, result, this.opts.config.webhookRetryDelays, new Date(), this.random);
    const recorded = await recordAttempt(
      this.opts.db,
      row,
      {
        startedAt: result.startedAt,
        durationMs: result.durationMs,
        outcome: result.outcome,
        statusCode: result.statusCode,
        error: result.error,
      },
      next,
    );
    const fields = {
      deliveryId: row.deliveryId,
      event: row.event,
      attempt: row.attempt,
      outcome: result.outcome,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      status: next.status,
    };
    if (recorded === 'lost') {
      log?.warn(fields, 'webhook attempt result dropped: the claim lapsed and another worker took the delivery');
      return;
    }
    if (recorded === 'disabled') {
      log?.info(
        { ...fields, status: 'failed' },
        'webhook attempt recorded; the webhook was deleted meanwhile, so the delivery stays failed',
      );
      return;
    }
    if (result.outcome === 'success') log?.debug(fields, 'webhook delivered');
    else log?.info({ ...fields, error: result.error }, 'webhook attempt failed');
    if (next.status === 'retry_scheduled') {
      this.retryTimes.push(Date.now() + next.waitMs);
      if (!this.filling) this.schedule();
    }
  }

  /** The next look: the earliest own retry, else the poll interval. */
  private schedule(): void {
    if (this.stopping) return;
    clearTimeout(this.timer);
    const now = Date.now();
    // A time that has passed was looked at by the fill that is scheduling now.
    this.retryTimes = this.retryTimes.filter((t) => t > now);
    let wait = this.pollMs;
    for (const t of this.retryTimes) wait = Math.min(wait, t - now + 5);
    this.timer = setTimeout(() => this.wake(), wait);
    this.timer.unref();
  }

  private async housekeep(): Promise<void> {
    try {
      const deliveries = await purgeOldDeliveries(this.opts.db);
      const keys = await purgeExpiredKeys(this.opts.db);
      const holds = await purgeEndedHolds(this.opts.db);
      if (deliveries + keys + holds > 0) this.opts.logger?.info({ deliveries, idempotencyRecords: keys, holds }, 'purged old records');
    } catch (err) {
      this.opts.logger?.warn({ err }, 'purging old records failed');
    }
  }
}

/** Builds and starts a worker; `stop()` it on shutdown. */
export async function startWebhookWorker(opts: WorkerOptions): Promise<WebhookWorker> {
  const w = new WebhookWorker(opts);
  await w.start();
  return w;
}
