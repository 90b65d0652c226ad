import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { attemptLeaseMs } from '../../domain/webhooks/attempt-lease.ts';
import { nextStep } from '../../domain/webhooks/retry-policy.ts';
import { decryptSigningSecret } from '../../domain/webhooks/signing-secret.ts';
import type { Metrics } from '../../metrics.ts';
import type { Db } from '../../store/db.ts';
import { countOutboxBacklog } from '../../store/outbox-backlog.ts';
import { getServerSecret } from '../../store/server-settings.ts';
import {
  OUTBOX_CHANNEL,
  claimDue,
  failWithoutAttempt,
  recordAttempt,
  releaseLease,
  type ClaimedDelivery,
} from '../../store/webhook-outbox.ts';
import { Dispatcher, type Resolver } from '../../webhooks/dispatcher.ts';
import type { ClaimedWork, JobQueue } from '../handler.ts';

export interface WebhookDeliveryOptions {
  db: Db;
  config: Pick<Config, 'webhookTimeoutMs' | 'webhookRetryDelays' | 'webhookAllowPrivateTargets'>;
  logger?: Logger | undefined;
  metrics?: Metrics | undefined;
  /** DNS for the connect-time address check; tests map names to 127.0.0.1 with it */
  resolver?: Resolver | undefined;
  /**
   * How long a claim holds a delivery. Longer than any attempt can take (the attempt is cut at
   * WEBHOOK_TIMEOUT_MS), so only a dead or frozen worker's claim ever lapses.
   */
  leaseMs?: number | undefined;
  random?: (() => number) | undefined;
}

/**
 * Webhook delivery, the kind whose rows are its own (webhook_deliveries is at once the delivery
 * log, and the job row: docs/decisions.md "Background jobs"). A claim is one delivery; its run is
 * one attempt through the Dispatcher, recorded with the delivery's next state by the webhook retry
 * policy (src/domain/webhooks/retry-policy.ts). Woken by the booking transaction's NOTIFY on
 * `webhook_outbox`.
 */
export class WebhookDeliveryQueue implements JobQueue {
  readonly kind = 'webhook.delivery';
  readonly channel = OUTBOX_CHANNEL;
  private readonly dispatcher: Dispatcher;
  private readonly leaseMs: number;
  private readonly random: () => number;
  private serverSecret: Buffer | undefined;

  constructor(private readonly opts: WebhookDeliveryOptions) {
    this.dispatcher = new Dispatcher({
      timeoutMs: opts.config.webhookTimeoutMs,
      allowPrivateTargets: opts.config.webhookAllowPrivateTargets,
      resolver: opts.resolver,
    });
    this.leaseMs = opts.leaseMs ?? attemptLeaseMs(opts.config.webhookTimeoutMs);
    this.random = opts.random ?? Math.random;
  }

  async start(): Promise<void> {
    this.serverSecret = await getServerSecret(this.opts.db);
    this.opts.metrics?.setBacklogSource(() => countOutboxBacklog(this.opts.db));
  }

  async claim(limit: number): Promise<ClaimedWork[]> {
    const rows = await claimDue(this.opts.db, limit, this.leaseMs);
    return rows.map((row) => ({
      label: { deliveryId: row.deliveryId, attempt: row.attempt },
      run: () => this.deliver(row),
      release: () => releaseLease(this.opts.db, row),
    }));
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  private async deliver(row: ClaimedDelivery): Promise<{ retryAt?: number | undefined }> {
    const log = this.opts.logger;
    // The URL and secret as they are at this attempt (read by the claim): a changed URL or a
    // rotated secret applies to retries of older events.
    if (!row.target) {
      // The webhook was deleted: the delivery ends without an attempt.
      await failWithoutAttempt(this.opts.db, row);
      log?.info({ deliveryId: row.deliveryId, event: row.event }, 'webhook delivery failed: no webhook configured');
      return {};
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
      return {};
    }
    if (recorded === 'disabled') {
      log?.info(
        { ...fields, status: 'failed' },
        'webhook attempt recorded; the webhook was deleted meanwhile, so the delivery stays failed',
      );
      return {};
    }
    if (result.outcome === 'success') log?.debug(fields, 'webhook delivered');
    else log?.info({ ...fields, error: result.error }, 'webhook attempt failed');
    return next.status === 'retry_scheduled' ? { retryAt: Date.now() + next.waitMs } : {};
  }
}
