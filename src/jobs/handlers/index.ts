import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Metrics } from '../../metrics.ts';
import type { Db } from '../../store/db.ts';
import type { Resolver } from '../../webhooks/dispatcher.ts';
import type { JobRegistry } from '../registry.ts';
import { type BookingFollowup, bookingFollowupHandler } from './booking-followup.ts';
import { clientRetentionHandler } from './client-retention.ts';
import { housekeepingHandler } from './housekeeping.ts';
import { messageSendHandler } from './message-send.ts';
import { messagesFollowup } from './messages-followup.ts';
import { createSmsGatewayChannel } from '../../notify/sms-gateway.ts';
import { createSmtpChannel } from '../../notify/smtp.ts';
import type { Channels } from '../../notify/channel.ts';
import { WebhookDeliveryQueue } from './webhook-delivery.ts';
import { offerExpiryHandler, waitlistFollowup, waitlistMatchHandler } from './waitlist.ts';

/** What the standard handlers are built from: one worker's process-wide parts. */
export interface JobDeps {
  db: Db;
  config: Pick<
    Config,
    | 'webhookTimeoutMs'
    | 'webhookRetryDelays'
    | 'webhookAllowPrivateTargets'
    | 'publicBaseUrl'
    | 'smtpUrl'
    | 'mailFrom'
    | 'notificationRetryDelaysMs'
    | 'notificationTimeoutMs'
    | 'smsGatewayUrl'
    | 'smsGatewaySecret'
  >;
  logger?: Logger | undefined;
  metrics?: Metrics | undefined;
  /** DNS for the webhook connect-time address check; tests map names to 127.0.0.1 with it */
  resolver?: Resolver | undefined;
  /** the webhook claim's lease (default: attemptLeaseMs of WEBHOOK_TIMEOUT_MS) */
  webhookLeaseMs?: number | undefined;
  random?: (() => number) | undefined;
  /** the time handlers reason about (a waitlist offer's bookable days); the real one unless a test sets it */
  clock?: (() => Date) | undefined;
}

/** Which standard kinds this worker runs (WEBHOOK_WORKER and, later, NOTIFICATION_WORKER map here). */
export interface StandardKinds {
  webhooks?: boolean | undefined;
  housekeeping?: boolean | undefined;
  /** what booking events cause (messages, waitlist offers): NOTIFICATION_WORKER */
  notifications?: boolean | undefined;
}

/** What each booking event causes once committed, in this order (src/jobs/handlers/booking-followup.ts). */
export function bookingFollowups(deps: JobDeps): BookingFollowup[] {
  return [messagesFollowup(deps), waitlistFollowup(deps)];
}

/**
 * A send's claim outlasts its longest run: an SMTP connect and greeting (each at most 10 s, and at
 * most the timeout) then a socket wait of the timeout, plus the database's part; only a dead
 * worker's claim lapses.
 */
export function messageLeaseMs(timeoutMs: number): number {
  return 2 * Math.min(10_000, timeoutMs) + timeoutMs + 5_000;
}

/** SMTP when SMTP_URL is set, the SMS gateway when SMS_GATEWAY_URL is (docs/guest-messages.md). */
export function notifyChannels(config: JobDeps['config']): Channels {
  const channels: Channels = {};
  const timeoutMs = config.notificationTimeoutMs;
  if (config.smtpUrl) channels.email = createSmtpChannel(config.smtpUrl, config.mailFrom, { timeoutMs, pool: true });
  if (config.smsGatewayUrl && config.smsGatewaySecret)
    channels.sms = createSmsGatewayChannel(config.smsGatewayUrl, config.smsGatewaySecret, timeoutMs);
  return channels;
}

/**
 * Every kind of background work, registered once: a new kind is a handler file in this folder and
 * one line here (docs/jobs.md, "Adding a kind").
 */
export function registerStandardJobs(registry: JobRegistry, deps: JobDeps, kinds: StandardKinds = {}): JobRegistry {
  if (kinds.webhooks !== false) {
    registry.registerQueue(
      new WebhookDeliveryQueue({
        db: deps.db,
        config: deps.config,
        logger: deps.logger,
        metrics: deps.metrics,
        resolver: deps.resolver,
        leaseMs: deps.webhookLeaseMs,
        random: deps.random,
      }),
    );
  }
  if (kinds.housekeeping !== false) {
    registry.register(housekeepingHandler(deps));
    registry.register(clientRetentionHandler(deps));
  }
  if (kinds.notifications !== false) {
    registry.register(bookingFollowupHandler({ db: deps.db, followups: bookingFollowups(deps) }));
    registry.register(
      messageSendHandler({
        db: deps.db,
        channels: notifyChannels(deps.config),
        publicBaseUrl: deps.config.publicBaseUrl,
        mailFrom: deps.config.mailFrom,
        retryDelaysMs: deps.config.notificationRetryDelaysMs,
        leaseMs: messageLeaseMs(deps.config.notificationTimeoutMs),
        logger: deps.logger,
      }),
    );
    registry.register(waitlistMatchHandler(deps));
    registry.register(offerExpiryHandler(deps));
  }
  return registry;
}
