/**
 * What happens after one delivery attempt, as pure rules (booking-api-v1.md, Events rules 6, 7, 9):
 * which outcomes are retried, how long to wait, and the delivery's next status. The worker does
 * the I/O; everything it decides comes from here.
 */
export type AttemptOutcome = 'success' | 'timeout' | 'network_error' | 'http_error';
export type DeliveryStatus = 'pending' | 'processing' | 'retry_scheduled' | 'succeeded' | 'failed' | 'exhausted';

export const MAX_ATTEMPTS = 3;
/** Every attempt after the first is a retry, and each retry has its own wait range. */
export const RETRY_RANGE_COUNT = MAX_ATTEMPTS - 1;
/** The most a Retry-After header may add to a wait. */
export const RETRY_AFTER_CAP_MS = 600_000;

/** The bounds of the random wait before one retry (WEBHOOK_RETRY_DELAYS). */
export interface RetryRange {
  minMs: number;
  maxMs: number;
}

export interface AttemptResult {
  outcome: AttemptOutcome;
  statusCode: number | null;
  /** the raw Retry-After header of the response, if any */
  retryAfter?: string | undefined;
}

export type NextStep = { status: 'succeeded' | 'failed' | 'exhausted' } | { status: 'retry_scheduled'; waitMs: number };

/** Timeouts, network errors, 408, 429 and 5xx are worth another try; any other status is final. */
export function isRetryable(r: Pick<AttemptResult, 'outcome' | 'statusCode'>): boolean {
  if (r.outcome === 'timeout' || r.outcome === 'network_error') return true;
  if (r.outcome !== 'http_error' || r.statusCode === null) return false;
  return r.statusCode === 408 || r.statusCode === 429 || (r.statusCode >= 500 && r.statusCode <= 599);
}

/** `2xx` only; everything else (3xx included: redirects are not followed) is an http_error. */
export function outcomeOfStatus(statusCode: number): AttemptOutcome {
  return statusCode >= 200 && statusCode <= 299 ? 'success' : 'http_error';
}

/**
 * Retry-After as milliseconds from `now`: delta-seconds or an HTTP date, capped at 600 s. Anything
 * unparseable, negative or in the past gives undefined (the header is then ignored).
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  let ms: number;
  if (/^\d+$/.test(v)) {
    // A number too large to be finite is still "wait as long as allowed".
    const digits = v.replace(/^0+(?=\d)/, '');
    ms = digits.length > 9 ? RETRY_AFTER_CAP_MS : Number(digits) * 1000;
  } else {
    // Every HTTP date form starts with the day name; Date.parse alone would accept looser text
    // such as "-5" or "2031".
    if (!/^[A-Za-z]{3}/.test(v)) return undefined;
    const t = Date.parse(v);
    if (Number.isNaN(t)) return undefined;
    ms = t - now.getTime();
  }
  if (!Number.isFinite(ms) || ms <= 0) return undefined;
  return Math.min(ms, RETRY_AFTER_CAP_MS);
}

/** A uniformly random wait inside the range for the retry before attempt `nextAttempt` (2 to MAX_ATTEMPTS). */
export function jitteredWait(ranges: readonly RetryRange[], nextAttempt: number, random: () => number = Math.random): number {
  // Attempt 1 is not a retry, so the range before attempt n is the (n - 1)th, at index n - 2.
  const range = ranges[Math.min(nextAttempt - 2, ranges.length - 1)];
  if (!range) throw new Error('no retry range configured');
  return Math.round(range.minMs + random() * (range.maxMs - range.minMs));
}

/**
 * The delivery's next state after attempt number `attempt` (1-based) ended with `result`. A
 * Retry-After on 429 or 503 only lengthens the configured wait, never shortens it.
 */
export function nextStep(
  attempt: number,
  result: AttemptResult,
  ranges: readonly RetryRange[],
  now: Date,
  random: () => number = Math.random,
): NextStep {
  if (result.outcome === 'success') return { status: 'succeeded' };
  if (!isRetryable(result)) return { status: 'failed' };
  if (attempt >= MAX_ATTEMPTS) return { status: 'exhausted' };
  let waitMs = jitteredWait(ranges, attempt + 1, random);
  if (result.statusCode === 429 || result.statusCode === 503) {
    const asked = parseRetryAfter(result.retryAfter, now);
    if (asked !== undefined && asked > waitMs) waitMs = asked;
  }
  return { status: 'retry_scheduled', waitMs };
}
