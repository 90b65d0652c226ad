import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.ts';
import type { Metrics } from '../../metrics.ts';
import { RateLimitTimeout, throttledWarning, withTimeout } from '../../rate-limit/fail-open.ts';
import { counterKey, limitFor, WINDOW_MS, type RateGroup } from '../../rate-limit/policy.ts';
import type { RateLimitDecision, RateLimitStore } from '../../rate-limit/store.ts';
import type { Tier } from '../../domain/capabilities.ts';
import { occupancyVersionId } from '../../store/business-versions.ts';

export interface RateLimitOptions {
  store: RateLimitStore;
  metrics: Metrics;
  /** a check slower than this lets the request through (fail open) */
  timeoutMs: number;
}

/** One rate-limit round trip: the decision and, from a shared store, the business's published versions. */
export type HitOutcome =
  | { ok: true; keyId: string; tier: Tier; decision: RateLimitDecision; version: number | undefined; occupancy: number | undefined }
  | { ok: false; keyId: string; tier: Tier; err: unknown };

/**
 * Starts the check for a key (the auth hook starts it early when it needs the version to trust a
 * cached key; the rate-limit hook then uses that outcome instead of checking again).
 */
export function startHit(
  store: RateLimitStore,
  timeoutMs: number,
  key: { keyId: string; tier: Tier; businessId: string },
  group: RateGroup,
): Promise<HitOutcome> {
  const { keyId, tier, businessId } = key;
  const limit = limitFor(group, tier);
  const hit = store.hitWithVersion
    ? store.hitWithVersion(counterKey(keyId, group), limit, WINDOW_MS, businessId)
    : store.hit(counterKey(keyId, group), limit, WINDOW_MS).then((decision) => ({ decision, version: undefined, occupancy: undefined }));
  // A timer of our own only for a store that cannot bound its own time.
  return (store.timesItself ? hit : withTimeout(hit, timeoutMs)).then(
    (r) => ({ ok: true as const, keyId, tier, decision: r.decision, version: r.version, occupancy: r.occupancy }),
    (err: unknown) => ({ ok: false as const, keyId, tier, err }),
  );
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
    const { tier, keyId, businessId } = request.auth;
    const limit = limitFor(group, tier);
    void reply.header('ratelimit-policy', `"${group}";q=${limit};w=${windowSeconds}`);

    const early = request.rateLimitOutcome;
    const outcome =
      early && early.keyId === keyId && early.tier === tier ? early : await startHit(store, timeoutMs, { keyId, tier, businessId }, group);
    if (!outcome.ok) {
      const reason = outcome.err instanceof RateLimitTimeout ? 'timeout' : 'error';
      metrics.rateLimitFailOpen.inc({ store: store.name, reason });
      warn(outcome.err, { store: store.name, reason });
      // Fail open, and the caches are bypassed: no version was learnt.
      return;
    }
    if (store.hitWithVersion) noteSharedVersions(request, store, outcome.version, outcome.occupancy);
    const decision = outcome.decision;

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

/**
 * The versions Redis published for the request's business, learnt before the handler reads
 * anything: the catalogue answers are cached under its own version, the busy times under both.
 * When Redis has none (it lost it) or an older one than this request read from the database (a
 * write made outside every instance, or a publication still being retried), the database's version
 * is published (raise only: it is committed) so the caches work again; this request answers from
 * the database.
 */
function noteSharedVersions(
  request: FastifyRequest,
  store: RateLimitStore,
  version: number | undefined,
  occupancy: number | undefined,
): void {
  if (!request.auth) return;
  const { businessId } = request.auth;
  request.businessVersion = trusted(request, store, businessId, version, request.keyReadVersion);
  request.occupancyVersion = trusted(request, store, occupancyVersionId(businessId), occupancy, request.keyReadOccupancy);
}

function trusted(
  request: FastifyRequest,
  store: RateLimitStore,
  id: string,
  published: number | undefined,
  read: number | undefined,
): number | undefined {
  if (read !== undefined && (published === undefined || published < read) && store.publishVersion) {
    store.publishVersion(id, read).catch(() => {});
    return undefined;
  }
  if (published === undefined || request.server.ctx.caches.knowsLater(id, published)) return undefined;
  return published;
}
