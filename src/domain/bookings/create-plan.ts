import type { LocationRecord, ServiceRecord } from '../catalog-records.ts';
import { AppError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { CheckedInput } from './create-input.ts';
import type { HeldRange } from './held-range.ts';
import { type BookingEventRow, type EventActor, eventOf } from './event-row.ts';
import { locationSnapshotOf } from './location-snapshot.ts';
import { newPublicReference } from './public-reference.ts';
import type { BookingRecord, LocalSlot } from './record.ts';
import { planTransition } from './states.ts';

/** Where and with whom a new booking sits, and the time it holds (buffers included). */
export interface Placement {
  staffId: string;
  staffName: string;
  sessionId: string | null;
  startAt: Date;
  endAt: Date;
  slot: LocalSlot;
  held: HeldRange;
  /** a group seat's: the session's seat price, when it has one (bookedPrice) */
  seatPriceMinor?: number | null;
}

export type SlotGone = 'booking.slot_no_longer_available' | 'booking.slot_unavailable';

export interface CreateRules {
  automatic: boolean;
  /** the code of a lost slot, which depends on the policy (spec transitions table) */
  slotGone: SlotGone;
}

/** What the service's policy decides before anything is read or asked of a provider. */
export function createRules(service: ServiceRecord, depositsEnabled: boolean): CreateRules {
  const automatic = service.requestAcceptancePolicy === 'automatic';
  if (service.depositRequired && !depositsEnabled && !automatic) {
    throw new AppError('booking.deposit_unavailable', 'Deposit collection is not available for this business right now.');
  }
  return { automatic, slotGone: automatic ? 'booking.slot_no_longer_available' : 'booking.slot_unavailable' };
}

export interface CreatePlanRequest {
  bookingId: string;
  businessId: string;
  /** the business's slug, for the event payloads */
  salonSlug: string;
  location: LocationRecord;
  service: ServiceRecord;
  input: CheckedInput;
  now: Date;
  /** acceptance as settled before the write (automatic service, deposit link issued if one is needed) */
  confirm: boolean;
  /** who books, named on both events (operator event reads) */
  actor?: EventActor | undefined;
  /** the visit the booking is a part of (its events and webhooks then carry visitId) */
  visitId?: string | undefined;
}

/**
 * The booking row as it is written, once, as it ends, and its events: `booking.requested`, and
 * for a confirmed one the `booking.confirmed` transition in the same write (stateVersion 2), as the
 * spec's requested → confirmed in one call. Each call draws a fresh public reference.
 */
export function planCreate(req: CreatePlanRequest, p: Placement): { booking: BookingRecord; events: BookingEventRow[] } {
  const { location, service, input, now } = req;
  const requested: BookingRecord = {
    id: req.bookingId,
    businessId: req.businessId,
    locationId: location.id,
    serviceId: service.id,
    staffId: p.staffId,
    sessionId: p.sessionId,
    publicReference: newPublicReference(),
    status: 'requested',
    stateVersion: 1,
    acceptanceMode: 'manual',
    serviceName: service.name,
    staffName: p.staffName,
    locationSnapshot: locationSnapshotOf(location),
    timezone: location.timezone,
    requestedDate: p.slot.date,
    requestedStartTime: p.slot.startTime,
    startAt: p.startAt,
    endAt: p.endAt,
    slot: p.slot,
    proposed: null,
    guestName: input.guest.name,
    note: input.note,
    serviceLocation: input.serviceLocation,
    createdAt: now,
    updatedAt: now,
    ...(req.visitId !== undefined ? { visitId: req.visitId } : {}),
  };
  const actor = req.actor ?? null;
  const events = [{ ...eventOf(requested, 'booking.requested', { id: null, from: null, occurredAt: now }, req.salonSlug), actor }];
  if (!req.confirm) return { booking: requested, events };
  const { to, event } = planTransition('autoConfirm', requested.status, requested.startAt, now);
  const booking: BookingRecord = { ...requested, status: to, stateVersion: 2, acceptanceMode: 'automatic', updatedAt: now };
  events.push({ ...eventOf(booking, event, { id: newId('trn'), from: requested.status, occurredAt: now }, req.salonSlug), actor });
  return { booking, events };
}

/**
 * The catalog error of a create the database refused. `time_taken` is the lost slot (the staff gate
 * takes it as the database's refusal and tries the next staff member); `key_settled`: this request's
 * claim lapsed and a duplicate with the same key has answered it, so a retry gets that answer.
 */
export function createRefusal(written: 'quota_exceeded' | 'time_taken' | 'key_settled', slotGone: SlotGone): AppError {
  switch (written) {
    case 'quota_exceeded':
      return new AppError('subscription.quota_exceeded', undefined, { limit: 'maxBookingsPerMonth' });
    case 'time_taken':
      return new AppError(slotGone);
    case 'key_settled':
      return new AppError('idempotency.request_in_progress');
  }
}
