import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashSecret, isWellFormedApiKey } from '../../domain/api-key-secret.ts';
import { AppError } from '../../domain/errors.ts';
import { effectiveCapabilities } from '../../domain/members/key-authority.ts';
import { allowsApiAccess, effectiveFeatures } from '../../domain/plans.ts';
import { findUsableKey, type KeyWithBusiness } from '../../store/api-keys.ts';
import { occupancyVersionId } from '../../store/business-versions.ts';
import { startHit } from './rate-limit.ts';

export function bearerOf(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(h);
  return m?.[1];
}

/** Whether `request` carries the operator token (never, when ADMIN_TOKEN is not set). */
export function hasOperatorToken(request: FastifyRequest, adminToken: string | undefined): boolean {
  const token = bearerOf(request);
  return adminToken !== undefined && token !== undefined && sameSecret(token, adminToken);
}

function sameSecret(a: string, b: string): boolean {
  // Hash both sides so the comparison is constant-time whatever the lengths.
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

/**
 * Checks in the order decisions.md fixes: key (401), plan, kind, capability (403). Rate limit and
 * Idempotency-Key form follow in their own hooks; body schema and scope after those.
 */
export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('businessVersion', undefined);
  app.decorateRequest('keyReadVersion', undefined);
  app.decorateRequest('occupancyVersion', undefined);
  app.decorateRequest('keyReadOccupancy', undefined);
  app.decorateRequest('rateLimitOutcome', undefined);

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    // Operator and account routes: operator-auth.ts.
    if (access?.surface !== 'public') return;

    const secret = bearerOf(request);
    if (secret === undefined || !isWellFormedApiKey(secret)) throw new AppError('auth.invalid_key');
    const hash = hashSecret(secret);
    const { caches } = app.ctx;
    let key: KeyWithBusiness | undefined = caches.cachedKey(hash);
    // A cached key this route would refuse is read again (and refused) without a rate-limit check:
    // a refused request is never counted.
    if (key && !passes(key, access)) key = undefined;
    if (key && caches.mode === 'redis') {
      // Trusted only if its business's version has not moved since it was read: learnt in the
      // rate-limit round trip, made now instead of in the rate-limit hook (which uses its outcome).
      const outcome = await startHit(
        app.ctx.rateLimits,
        app.ctx.config.rateLimitTimeoutMs,
        { keyId: key.id, tier: key.tier, businessId: key.business_id },
        access.group,
      );
      request.rateLimitOutcome = outcome;
      if (!outcome.ok || outcome.version !== Number(key.version) || caches.knowsLater(key.business_id, Number(key.version)))
        key = undefined;
    } else if (key && caches.localVersion(key.business_id) !== Number(key.version)) {
      key = undefined;
    }
    if (!key) {
      caches.forgetKey(hash);
      key = await findUsableKey(app.ctx.db, hash);
      if (!key) throw new AppError('auth.invalid_key');
      request.keyReadVersion = Number(key.version);
      request.keyReadOccupancy = Number(key.occupancy);
      caches.rememberKey(hash, key);
    }
    // local: the version this process knows now, before the handler reads (none: no cache).
    if (caches.mode === 'local') {
      request.businessVersion = caches.localVersion(key.business_id);
      request.occupancyVersion = caches.localVersion(occupancyVersionId(key.business_id));
    }

    if (!allowsApiAccess(key.status, effectiveFeatures(key.plan, key.feature_overrides))) {
      throw new AppError('auth.plan_insufficient');
    }
    if (key.kind === 'guest_partner' && !access.guestPartner) {
      throw new AppError('auth.kind_endpoint_denied');
    }
    // A personal key: what its holder's role allows now (read with the key, under its version).
    const granted = grantedBy(key);
    if (!granted.includes(access.capability)) {
      throw new AppError('auth.insufficient_capability', undefined, {
        required: [access.capability],
        granted,
      });
    }
    request.auth = {
      keyId: key.id,
      businessId: key.business_id,
      businessSlug: key.business_slug,
      kind: key.kind,
      capabilities: granted,
      tier: key.tier,
    };
  });
}

function passes(key: KeyWithBusiness, access: { capability: string; guestPartner?: boolean }): boolean {
  return (
    allowsApiAccess(key.status, effectiveFeatures(key.plan, key.feature_overrides)) &&
    (key.kind !== 'guest_partner' || access.guestPartner === true) &&
    (grantedBy(key) as string[]).includes(access.capability)
  );
}

function grantedBy(key: KeyWithBusiness) {
  return effectiveCapabilities({ type: key.type, capabilities: key.capabilities, holderRole: key.holder_role });
}

/** The authenticated key of a public route; the hook guarantees it is there. */
export function authOf(request: FastifyRequest) {
  if (!request.auth) throw new Error('route without public access config used authOf');
  return request.auth;
}
