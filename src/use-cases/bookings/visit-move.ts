import type { EventActor } from '../../domain/bookings/event-row.ts';
import type { BookingRecord } from '../../domain/bookings/record.ts';
import { OCCUPYING } from '../../domain/bookings/states.ts';
import type { ServiceRecord } from '../../domain/catalog-records.ts';
import { AppError } from '../../domain/errors.ts';
import { checkVisitHold } from '../../domain/holds/for-visit.ts';
import { lockStaffCalendars } from '../../store/bookings.ts';
import type { Queryable } from '../../store/db.ts';
import { findVisitHold, staffStillTakesHold, useHold as markHoldUsed } from '../../store/holds.ts';
import { findServiceById } from '../../store/services.ts';
import { visitBookings } from '../../store/visits.ts';
import { changeBooking } from './lifecycle.ts';

/**
 * Moves a whole visit to the time its visit hold keeps (salon-scheduling.md "Visits": the manage
 * page moves the whole visit), in the caller's transaction: every part that still occupies time
 * goes to its held part (same services in the same order), each through the state machine as a
 * `reschedule` with its own `booking.reschedule_confirmed`, all or none. Only a hold made by the
 * visit search can be used, so the parts stay back to back by the visit's rule.
 *
 * The holds are marked used first, so they no longer keep their times from these bookings; the
 * parts are then moved in the order that never lets one meet another's old time (the last first
 * when the visit moves later, the first first when earlier), since the exclusion constraint is
 * checked per statement. Refusals: the hold's (404 booking.hold_not_found, 409
 * booking.hold_expired or booking.hold_mismatch), a clash 409 booking.slot_unavailable.
 */
export async function moveVisitInTransaction(
  tx: Queryable,
  req: { businessId: string; visitId: string; holdId: string; now: Date; actor: EventActor },
): Promise<BookingRecord[]> {
  const parts = (await visitBookings(tx, req.visitId)).filter((p) => OCCUPYING.has(p.status));
  if (parts.length === 0) throw new AppError('booking.not_found');
  const found = await findVisitHold(tx, req.businessId, req.holdId);
  if (!found) throw new AppError('booking.hold_not_found');
  // Every staff member of the old and the new times, in id order, before any row is touched.
  await lockStaffCalendars(tx, [...parts.map((p) => p.staffId), ...found.parts.map((p) => p.staffId)]);
  const services: ServiceRecord[] = [];
  for (const p of parts) {
    const service = await findServiceById(tx, p.serviceId);
    if (!service) throw new AppError('booking.hold_mismatch', 'A service of the visit no longer exists.');
    services.push(service);
  }
  const want = { locationId: parts[0]!.locationId, parts: parts.map((p) => ({ serviceId: p.serviceId })), slot: found.hold.slot };
  const held = checkVisitHold(await findVisitHold(tx, req.businessId, req.holdId, true), want, req.now, services);
  for (const part of held.parts) {
    if (!(await staffStillTakesHold(tx, part))) {
      throw new AppError('booking.hold_expired', 'A staff member no longer takes this time; choose another one.');
    }
  }
  for (const [i, part] of held.parts.entries()) await markHoldUsed(tx, part.id, parts[i]!.id);
  const later = held.parts[0]!.startAt.getTime() > parts[0]!.startAt.getTime();
  const order = parts.map((_, i) => i);
  if (later) order.reverse();
  const moved = new Map<number, BookingRecord>();
  for (const i of order) {
    const hold = held.parts[i]!;
    moved.set(
      i,
      await changeBooking(tx, {
        businessId: req.businessId,
        bookingId: parts[i]!.id,
        action: 'reschedule',
        now: req.now,
        actor: req.actor,
        newTime: { date: hold.slot.date, startTime: hold.slot.startTime, staffId: hold.staffId },
      }),
    );
  }
  return parts.map((_, i) => moved.get(i)!);
}
