import type { AttemptGate } from '../../concurrency/attempt-gate.ts';
import type { CreateBookingBody } from '../../domain/bookings/create-input.ts';
import type { DepositProvider } from '../../domain/deposits/provider.ts';
import { AppError } from '../../domain/errors.ts';
import { effectiveFeatures } from '../../domain/plans.ts';
import type { Db } from '../../store/db.ts';
import type { KeyCompletion } from '../../store/idempotency.ts';
import { getSubscription } from '../../store/subscriptions.ts';
import { catalogueRead, type CacheUse } from '../read-cache.ts';
import { resolveLocation, resolveLocationAndService } from '../scope.ts';
import { visitServices } from '../availability/visit-slots.ts';
import { createVisit, type VisitCreateBody, type VisitOutcome } from './create-visit.ts';
import { type CreateOutcome, createBooking } from './create.ts';

export interface PublicCreateRequest {
  auth: { businessId: string; businessSlug: string; keyId: string; kind: 'owner' | 'guest_partner' };
  body: CreateBookingBody;
  now: Date;
  deposits: DepositProvider;
  secret: Buffer;
  gate: AttemptGate;
  /** the catalogue cache (the location and service); busy times are read fresh by the create */
  cache?: CacheUse | undefined;
}

/**
 * POST /v1/bookings once its Idempotency-Key is claimed: the location and service the body names,
 * the refusals that come before any slot is looked at, the plan's deposit feature, then the create.
 * The lookups run after the claim, so a replay returns the original response even when the
 * location, service or plan changed since (spec rule 11), instead of a new error.
 */
export async function createPublicBooking(
  db: Db,
  req: PublicCreateRequest,
  settle: (outcome: CreateOutcome) => KeyCompletion,
): Promise<CreateOutcome> {
  const { auth, body } = req;
  const { location, service } = await catalogueRead(
    req.cache,
    ['locationAndService', auth.businessSlug, body.salonSlug, body.locationSlug, body.serviceId],
    () => resolveLocationAndService(db, auth, body.salonSlug, body.locationSlug, body.serviceId),
  );
  if (!service?.active || !service.onlineBookable) throw new AppError('catalog.service_not_found');
  if (!location.bookingEnabled) throw new AppError('booking.booking_disabled');
  // Only a deposit service needs the plan's features (one query less on every other create).
  const subscription = service.depositRequired ? await getSubscription(db, auth.businessId) : undefined;
  const depositsEnabled = subscription ? effectiveFeatures(subscription.plan, subscription.featureOverrides).depositCollection : false;
  const ctx = {
    businessId: auth.businessId,
    salonSlug: auth.businessSlug,
    source: { kind: 'api' as const, keyId: auth.keyId, keyKind: auth.kind },
    location,
    service,
    depositsEnabled,
    deposits: req.deposits,
    now: req.now,
    secret: req.secret,
    gate: req.gate,
  };
  return createBooking(db, ctx, body, settle);
}

/**
 * POST /v1/bookings with `visit` once its Idempotency-Key is claimed: the location, each part's
 * service (and staff member, when named) as the location offers them, the same refusals as one
 * service's, then the visit's create.
 */
export async function createPublicVisit(
  db: Db,
  req: Omit<PublicCreateRequest, 'body' | 'deposits' | 'secret' | 'gate'> & { body: VisitCreateBody },
  settle: (outcome: VisitOutcome) => KeyCompletion,
): Promise<VisitOutcome> {
  const { auth, body } = req;
  const location = await catalogueRead(req.cache, ['location', auth.businessSlug, body.salonSlug, body.locationSlug], () =>
    resolveLocation(db, auth, body.salonSlug, body.locationSlug),
  );
  const services = await visitServices(
    db,
    location,
    body.visit.map((p) => p.serviceId),
    body.visit.map((p) => p.staffId),
    'body.visit',
  );
  if (services.some((s) => !s.onlineBookable)) throw new AppError('catalog.service_not_found');
  if (!location.bookingEnabled) throw new AppError('booking.booking_disabled');
  const ctx = {
    businessId: auth.businessId,
    salonSlug: auth.businessSlug,
    source: { kind: 'api' as const, keyId: auth.keyId, keyKind: auth.kind },
    location,
    services,
    now: req.now,
  };
  return createVisit(db, ctx, body, settle);
}
