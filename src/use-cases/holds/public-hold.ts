import type { AttemptGate } from '../../concurrency/attempt-gate.ts';
import { AppError } from '../../domain/errors.ts';
import type { HoldRecord, VisitHold } from '../../domain/holds/record.ts';
import type { Queryable } from '../../store/db.ts';
import { visitServices } from '../availability/visit-slots.ts';
import { readGuestSettings } from '../guest-settings.ts';
import { catalogueRead, type CacheUse } from '../read-cache.ts';
import { resolveLocation, resolveLocationAndService } from '../scope.ts';
import { holdInTransaction, type HoldInput } from './create.ts';
import { holdVisitInTransaction } from './visit-hold.ts';

export interface PublicHoldRequest {
  auth: { businessId: string; businessSlug: string };
  body: HoldInput & { salonSlug: string; locationSlug: string; serviceId: string };
  now: Date;
  gate: AttemptGate;
  cache?: CacheUse | undefined;
}

/**
 * POST /v1/holds once its Idempotency-Key is claimed, in the transaction that stores its answer: the location and service as a create finds
 * them, the same refusals before any time is looked at, the business's holdMinutes, then the hold.
 */
export async function createPublicHold(tx: Queryable, req: PublicHoldRequest): Promise<HoldRecord> {
  const { auth, body } = req;
  const { location, service } = await catalogueRead(
    req.cache,
    ['locationAndService', auth.businessSlug, body.salonSlug, body.locationSlug, body.serviceId],
    () => resolveLocationAndService(tx, auth, body.salonSlug, body.locationSlug, body.serviceId),
  );
  if (!service?.active || !service.onlineBookable) throw new AppError('catalog.service_not_found');
  if (!location.bookingEnabled) throw new AppError('booking.booking_disabled');
  const settings = await catalogueRead(req.cache, ['guestSettings'], () => readGuestSettings(tx, auth.businessId));
  const ctx = { businessId: auth.businessId, location, service, holdMinutes: settings.holdMinutes, now: req.now, gate: req.gate };
  return holdInTransaction(tx, ctx, { staffId: body.staffId, slot: body.slot });
}

/** POST /v1/holds with `serviceIds`: a visit's hold, with the same refusals as one service's. */
export async function createPublicVisitHold(
  tx: Queryable,
  req: Omit<PublicHoldRequest, 'body' | 'gate'> & { body: HoldInput & { salonSlug: string; locationSlug: string; serviceIds: string[] } },
): Promise<VisitHold> {
  const { auth, body } = req;
  const location = await resolveLocation(tx, auth, body.salonSlug, body.locationSlug);
  const services = await visitServices(
    tx,
    location,
    body.serviceIds,
    body.serviceIds.map(() => body.staffId),
    'body.serviceIds',
  );
  if (services.some((s) => !s.onlineBookable)) throw new AppError('catalog.service_not_found');
  if (!location.bookingEnabled) throw new AppError('booking.booking_disabled');
  const settings = await catalogueRead(req.cache, ['guestSettings'], () => readGuestSettings(tx, auth.businessId));
  const ctx = { businessId: auth.businessId, location, services, holdMinutes: settings.holdMinutes, now: req.now };
  return holdVisitInTransaction(tx, ctx, { staffId: body.staffId, slot: body.slot });
}
