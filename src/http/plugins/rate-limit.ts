import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.ts';
import type { Metrics } from '../../metrics.ts';
import { RateLimitTimeout, throttledWarning, withTimeout } from '../../rate-limit/fail-open.ts';
import { counterKey, limitFor, WINDOW_MS } from '../../rate-limit/policy.ts';
import type { RateLimitDecision, RateLimitStore } from '../../rate-limit/store.ts';

export interface RateLimitOptions {
  store: RateLimitStore;
  metrics: Metrics;
  /** a check slower than this lets the request through (fail open) */
  timeoutMs: number;
}

/**
 * The rate limit per API key and route group (spec "Limits"), after the capability check and before
 * the Idempotency-Key form check (decisions.md "Order of checks"). Headers follow
 * draft-ietf-httpapi-ratelimit-headers-09: `RateLimit-Policy: "booking";q=30;w=60` and
 * `RateLimit: "booking";r=12;t=40`, set here so that every later answer of the route, errors and
 * the 429 included, carries them.
 */
export function registerRateLimit(app: FastifyInstance, opts: RateLimitOptions): void {
  const { store, metrics, timeoutMs } = opts;
  const warn = throttledWarning(app.log, 'rate-limit store failed; requests pass without a limit (fail open)');
  const windowSeconds = WINDOW_MS / 1000;

  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access;
    // The auth hook has run: a public route without request.auth has already been refused.
    if (access?.surface !== 'public' || request.auth === null) return;
    const { group } = access;
    const { tier, keyId } = request.auth;
    const limit = limitFor(group, tier);
    void reply.header('ratelimit-policy', `"${group}";q=${limit};w=${windowSeconds}`);

    let decision: RateLimitDecision;
    try {
      decision = await withTimeout(store.hit(counterKey(keyId, group), limit, WINDOW_MS), timeoutMs);
    } catch (err) {
      const reason = err instanceof RateLimitTimeout ? 'timeout' : 'error';
      metrics.rateLimitFailOpen.inc({ store: store.name, reason });
      warn(err, { store: store.name, reason });
      return;
    }

    // Rounded up, so a client that waits this long is never early.
    const resetSeconds = Math.ceil(decision.resetMs / 1000);
    void reply.header('ratelimit', `"${group}";r=${decision.remaining};t=${resetSeconds}`);
    if (!decision.allowed) {
      metrics.rateLimitRejections.inc({ group, tier });
      throw new AppError(
        'rate_limit.exceeded',
        `Rate limit of ${limit} requests per minute for the ${group} group exceeded; retry after ${resetSeconds} s.`,
        { retryAfterSeconds: resetSeconds },
        { 'retry-after': String(resetSeconds) },
      );
    }
  });
}
