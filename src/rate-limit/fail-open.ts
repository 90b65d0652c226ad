import type { FastifyBaseLogger } from 'fastify';

export class RateLimitTimeout extends Error {
  constructor(ms: number) {
    super(`rate-limit store did not answer within ${ms} ms`);
    this.name = 'RateLimitTimeout';
  }
}

/** Rejects after `ms` whatever the store does; its late answer or error is dropped. */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RateLimitTimeout(ms)), ms);
  });
  p.catch(() => {}); // a late rejection after the timeout must not become unhandled
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A warning at most once per `everyMs`, with how many were held back since: a Redis outage under
 * load must not turn into one log line per request.
 */
export function throttledWarning(log: FastifyBaseLogger, message: string, everyMs = 30_000) {
  let last = -Infinity;
  let suppressed = 0;
  return (err: unknown, fields: Record<string, unknown> = {}) => {
    const now = Date.now();
    if (now - last < everyMs) {
      suppressed++;
      return;
    }
    log.warn({ ...fields, err, suppressedSinceLastWarning: suppressed }, message);
    last = now;
    suppressed = 0;
  };
}
