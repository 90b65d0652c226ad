import { BookingApiError, UnexpectedResponseError } from './errors.ts';

export interface RetryOptions {
  /** attempts in all, the first included (default 3; 1 turns retrying off) */
  attempts?: number;
  /** first wait between attempts, doubled each time (default 250 ms) */
  baseDelayMs?: number;
  /** longest wait; a `Retry-After` asking for more ends the retries (default 10 s) */
  maxDelayMs?: number;
}

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export function retryPolicy(o: RetryOptions = {}): RetryPolicy {
  return { attempts: Math.max(1, o.attempts ?? 3), baseDelayMs: o.baseDelayMs ?? 250, maxDelayMs: o.maxDelayMs ?? 10_000 };
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), or undefined. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * How long to wait before attempt `next` (2, 3, ...) after `failure`, or undefined when it must
 * not be retried. Retried: a request that got no answer (the write may or may not have happened,
 * which is what the idempotency key is for), a gateway's 502, 503 or 504 in front of the API (the
 * same doubt) and an answer the catalog marks `retryable`. A caller's own abort is never retried.
 */
export function delayBeforeRetry(policy: RetryPolicy, next: number, failure: unknown, retryAfter: string | null): number | undefined {
  if (next > policy.attempts) return undefined;
  if (failure instanceof BookingApiError) {
    if (!failure.retryable) return undefined;
  } else if (failure instanceof UnexpectedResponseError) {
    if (![502, 503, 504].includes(failure.status)) return undefined;
  } else if (!(failure instanceof TypeError)) {
    // fetch rejects with a TypeError when no answer came; anything else (an AbortError, a bug) is not ours to retry
    return undefined;
  }
  const asked = retryAfterMs(retryAfter);
  if (asked !== undefined) return asked <= policy.maxDelayMs ? asked : undefined;
  const backoff = policy.baseDelayMs * 2 ** (next - 2);
  return Math.min(policy.maxDelayMs, backoff / 2 + Math.random() * (backoff / 2));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
