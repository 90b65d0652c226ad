/**
 * One delivery record of GET /webhooks/deliveries. The worker's internal `pending` (queued, no
 * attempt made yet) is shown as `processing`: the spec's enum has no "not yet started" value, and
 * for an integrator both mean the same thing, "the service is still working on it" (outcome null).
 */
export const DELIVERY_STATUSES = ['processing', 'retry_scheduled', 'succeeded', 'failed', 'exhausted'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const ATTEMPT_OUTCOMES = ['success', 'timeout', 'network_error', 'http_error'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

export interface DeliveryRow {
  deliveryId: string;
  bookingId: string;
  sequence: number;
  event: string;
  status: DeliveryStatus | 'pending';
  attemptCount: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  outcome: AttemptOutcome | null;
  statusCode: number | null;
  createdAt: Date;
}

export interface AttemptRow {
  deliveryId: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
}

export interface AttemptView {
  attempt: number;
  startedAt: string;
  durationMs: number;
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
}

export interface DeliveryView {
  deliveryId: string;
  event: string;
  bookingId: string;
  sequence: number;
  status: DeliveryStatus;
  attemptCount: number;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  outcome: AttemptOutcome | null;
  statusCode: number | null;
  attempts: AttemptView[];
  createdAt: string;
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export function toDeliveryView(d: DeliveryRow, attempts: readonly AttemptRow[]): DeliveryView {
  const ended = d.status === 'succeeded' || d.status === 'failed' || d.status === 'exhausted';
  return {
    deliveryId: d.deliveryId,
    event: d.event,
    bookingId: d.bookingId,
    sequence: d.sequence,
    status: d.status === 'pending' ? 'processing' : d.status,
    attemptCount: d.attemptCount,
    lastAttemptAt: iso(d.lastAttemptAt),
    // an ended delivery has no next attempt, whatever a worker left in the column
    nextAttemptAt: ended ? null : iso(d.nextAttemptAt),
    outcome: d.outcome,
    statusCode: d.statusCode,
    attempts: attempts
      .filter((a) => a.deliveryId === d.deliveryId)
      .sort((a, b) => a.attempt - b.attempt)
      .map((a) => ({
        attempt: a.attempt,
        startedAt: a.startedAt.toISOString(),
        durationMs: a.durationMs,
        outcome: a.outcome,
        statusCode: a.statusCode,
        error: a.error,
      })),
    createdAt: d.createdAt.toISOString(),
  };
}
