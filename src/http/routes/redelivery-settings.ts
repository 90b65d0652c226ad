import { attemptLeaseMs } from '../../domain/webhooks/attempt-lease.ts';
import type { RedeliverInput } from '../../use-cases/webhooks/redeliver.ts';
import type { App } from '../context.ts';

/** What a redelivery takes from the app, the same for the operator's route and the public one. */
export function redeliverySettings(app: App): Pick<RedeliverInput, 'serverSecret' | 'sender' | 'retryDelays' | 'leaseMs' | 'onAttempt'> {
  const { config } = app.ctx;
  return {
    serverSecret: app.ctx.serverSecret,
    sender: app.ctx.webhookSender,
    retryDelays: config.webhookRetryDelays,
    leaseMs: attemptLeaseMs(config.webhookTimeoutMs),
    onAttempt: (outcome) => app.ctx.metrics.webhookAttempts.inc({ outcome }),
  };
}
