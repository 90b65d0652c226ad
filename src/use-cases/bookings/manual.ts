import type { Queryable } from '../../store/db.ts';
import { insertBooking } from '../../store/bookings.ts';
import { findBusinessById } from '../../store/businesses.ts';
import { staffForService } from '../../store/staff.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { AppError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { normalizeGuest, type GuestInput } from '../../domain/bookings/guest.ts';
import { eventOf } from '../../domain/bookings/event-row.ts';
import { heldRange } from '../../domain/bookings/held-range.ts';
import { resolveLocalSlot } from '../../domain/time/local-slot.ts';
import { locationSnapshotOf } from '../../domain/bookings/location-snapshot.ts';
import { newPublicReference } from '../../domain/bookings/public-reference.ts';
import type { BookingRecord } from '../../domain/bookings/record.ts';
import { actorOfAuthor, type ManualAuthor, sourceRow } from '../../domain/bookings/source.ts';
import { bookedPrice } from '../../domain/bookings/price.ts';
import { forStaff } from '../../domain/scheduling/staff-variants.ts';

export interface ManualBookingInput {
  staffId: string;
  date: string;
  startTime: string;
  guest: GuestInput;
  note?: string | undefined;
}

/**
 * A booking the business writes itself (phone, walk-in): confirmed at once, no request phase, so
 * its first event is `booking.confirmed` with sequence 1. The time may lie in the past, but it may
 * still not clash with another booking of the staff member.
 */
export async function createManualBooking(
  tx: Queryable,
  location: LocationRecord,
  service: ServiceRecord,
  input: ManualBookingInput,
  by: ManualAuthor,
  now: Date,
  /** a part of a manual visit (manual-visit.ts) */
  visitId?: string,
): Promise<BookingRecord> {
  if (service.bookingMode === 'groupSession') {
    throw new AppError('request.validation_failed', 'Manual bookings are for standard services.');
  }
  const staff = await staffForService(tx, input.staffId, service.id, location.id);
  if (!staff) throw new AppError('catalog.staff_not_found');
  const guest = normalizeGuest(input.guest);
  // the staff member's own duration and segments (a stylist variant)
  const theirs = forStaff(service, staff.id);
  const resolved = resolveLocalSlot(location.timezone, input.date, input.startTime, theirs.durationMinutes, 'body');
  if (!resolved) throw new AppError('booking.slot_unavailable', 'That local time does not exist on that day (DST change).');
  const held = heldRange(resolved.startAt, resolved.endAt, theirs);
  const record: BookingRecord = {
    id: newId('bkg'),
    businessId: location.businessId,
    locationId: location.id,
    serviceId: service.id,
    staffId: staff.id,
    sessionId: null,
    publicReference: newPublicReference(),
    status: 'confirmed',
    stateVersion: 1,
    acceptanceMode: 'manual',
    serviceName: service.name,
    staffName: staff.name,
    locationSnapshot: locationSnapshotOf(location),
    timezone: location.timezone,
    requestedDate: null,
    requestedStartTime: null,
    startAt: resolved.startAt,
    endAt: resolved.endAt,
    slot: resolved.slot,
    proposed: null,
    guestName: guest.name,
    note: input.note?.trim() ? input.note : null,
    serviceLocation: null,
    createdAt: now,
    updatedAt: now,
    ...(visitId ? { visitId } : {}),
  };
  const salonSlug = (await findBusinessById(tx, location.businessId))!.slug;
  const row = {
    record,
    guestPhone: guest.phone,
    guestEmail: guest.email,
    consent: null,
    depositTerms: null,
    deposit: null,
    source: sourceRow({ kind: 'manual', by }),
    price: bookedPrice(service, staff.id),
    occupiedFrom: held.from,
    occupiedTo: held.to,
    processing: held.processing,
    resourceIds: held.resourceIds,
  };
  for (let attempt = 0; ; attempt++) {
    const confirmed = {
      ...eventOf(record, 'booking.confirmed', { id: null, from: null, occurredAt: now }, salonSlug),
      actor: actorOfAuthor(by),
    };
    const written = await insertBooking(tx, row, [confirmed]);
    if (written === 'inserted') break;
    if (written === 'time_taken') throw new AppError('booking.slot_unavailable', 'That time clashes with another booking.');
    // the public reference was taken (astronomically rare): draw another one
    if (attempt >= 3) throw new Error('no free public reference after 4 draws');
    record.publicReference = newPublicReference();
  }
  return record;
}
