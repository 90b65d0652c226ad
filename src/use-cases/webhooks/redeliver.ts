import { AppError } from '../../domain/errors.ts';
import { toDeliveryView, type DeliveryView } from '../../domain/webhooks/delivery-view.ts';
import { nextStep, type AttemptOutcome, type RetryRange } from '../../domain/webhooks/retry-policy.ts';
import { decryptSigningSecret } from '../../domain/webhooks/signing-secret.ts';
import type { Queryable } from '../../store/db.ts';
import { completeKey, type KeyCompletion } from '../../store/idempotency.ts';
import { findWebhookConfig } from '../../store/webhook-configs.ts';
import { findDelivery, listAttempts } from '../../store/webhook-log.ts';
import { claimForRedelivery, failWithoutAttempt, recordAttempt } from '../../store/webhook-outbox.ts';

/**
 * What makes one attempt: the worker's Dispatcher (src/webhooks/dispatcher.ts), with its
 * connect-time address check, passed in by the app so that a redelivery goes out exactly as the
 * worker's attempts do.
 */
export interface AttemptSender {
  send(d: {
    url: string;
    secret: string;
    payload: string;
    deliveryId: string;
    event: string;
    timestamp: string;
    attempt: number;
  }): Promise<{
    outcome: AttemptOutcome;
    statusCode: number | null;
    retryAfter?: string | undefined;
    error: string | null;
    durationMs: number;
    startedAt: Date;
  }>;
}

export interface RedeliverInput {
  businessId: string;
  deliveryId: string;
  serverSecret: Buffer;
  sender: AttemptSender;
  retryDelays: readonly RetryRange[];
  /** the claim's lease: longer than an attempt can take, as the worker's */
  leaseMs: number;
  /** told the outcome of the attempt made (the worker's attempt counter) */
  onAttempt?: ((outcome: AttemptOutcome) => void) | undefined;
  /**
   * The public route's Idempotency-Key completion for the answer (runIdempotentStatement), stored
   * once the attempt is recorded. The attempt is an HTTP request that no transaction can undo, so
   * it is not held inside one; the operator route passes none.
   */
  settle?: ((delivery: DeliveryView) => KeyCompletion) | undefined;
}

/** The delivery record as the log shows it. */
export async function getDelivery(q: Queryable, businessId: string, deliveryId: string): Promise<DeliveryView> {
  const row = await findDelivery(q, businessId, deliveryId);
  if (!row) throw new AppError('request.not_found', 'No such delivery for this business.');
  return toDeliveryView(row, await listAttempts(q, [deliveryId]));
}

/**
 * A redelivery (the operator route of business-side.md, and the public
 * POST /v1/webhooks/deliveries/{deliveryId}/redeliver): the event is sent again now as the next attempt of
 * the same record, whatever its status: the same payload bytes (so the same deliveryId and
 * timestamp), the webhook's current URL and secret, through the worker's sender. The attempt and
 * the record's next state are written as the worker writes them (nextStep, recordAttempt): success
 * ends it succeeded; a failure after the third attempt ends it exhausted or failed; a retryable
 * failure of an earlier attempt leaves a retry to the worker.
 */
export async function redeliverWebhook(q: Queryable, p: RedeliverInput): Promise<DeliveryView> {
  if (!(await findDelivery(q, p.businessId, p.deliveryId))) throw new AppError('request.not_found', 'No such delivery for this business.');
  if (!(await findWebhookConfig(q, p.businessId))) throw new AppError('webhook.not_configured');
  const claim = await claimForRedelivery(q, { businessId: p.businessId, deliveryId: p.deliveryId, leaseMs: p.leaseMs });
  if (claim === 'not_found') throw new AppError('request.not_found', 'No such delivery for this business.');
  if (claim === 'busy') {
    throw new AppError('idempotency.request_in_progress', 'An attempt of this delivery is in flight; try again in a few seconds.');
  }
  if (!claim.target) {
    // The webhook was deleted between the two reads: the delivery ends as DELETE ends the others.
    await failWithoutAttempt(q, claim);
    throw new AppError('webhook.not_configured');
  }
  const timestamp = (JSON.parse(claim.payload) as { timestamp?: unknown }).timestamp;
  const result = await p.sender.send({
    url: claim.target.url,
    secret: decryptSigningSecret(p.serverSecret, claim.target.secretCiphertext),
    payload: claim.payload,
    deliveryId: claim.deliveryId,
    event: claim.event,
    timestamp: typeof timestamp === 'string' ? timestamp : '',
    attempt: claim.attempt,
  });
  p.onAttempt?.(result.outcome);
  const next = nextStep(claim.attempt, result, p.retryDelays, new Date());
  await recordAttempt(
    q,
    claim,
    {
      startedAt: result.startedAt,
      durationMs: result.durationMs,
      outcome: result.outcome,
      statusCode: result.statusCode,
      error: result.error,
    },
    next,
  );
  const delivery = await getDelivery(q, p.businessId, p.deliveryId);
  if (p.settle) {
    const c = p.settle(delivery);
    // False: this request's key claim lapsed and a duplicate answered first; that answer stands.
    if (!(await completeKey(q, c.businessId, c.key, c.status, c.body))) throw new AppError('idempotency.request_in_progress');
    c.written = true;
  }
  return delivery;
}
