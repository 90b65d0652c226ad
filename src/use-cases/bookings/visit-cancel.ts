import type { BusinessBookingView } from '../../domain/bookings/business-view.ts';
import type { EventActor } from '../../domain/bookings/event-row.ts';
import type { BookingRecord } from '../../domain/bookings/record.ts';
import { OCCUPYING } from '../../domain/bookings/states.ts';
import { AppError } from '../../domain/errors.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import { visitBookings } from '../../store/visits.ts';
import { businessViews } from './business-view.ts';
import { changeBooking } from './lifecycle.ts';

/**
 * POST /admin/v1/visits/{visitId}/cancel: the business cancels every part of a visit that still
 * occupies time, in one transaction, each as its own cancel (its own `booking.cancelled` event and
 * webhook, as a part cancelled alone). Parts that already ended (cancelled, declined, completed, no
 * show) stay as they are; a visit with none left to cancel is 409 booking.invalid_transition, as
 * one booking's second cancel is. Unknown: 404 booking.not_found.
 */
export function cancelVisit(
  db: Db,
  req: { visitId: string; now: Date; reason?: string | undefined; actor: EventActor },
): Promise<{ visitId: string; bookings: BusinessBookingView[] }> {
  return transactionWithRetry(db, async (tx) => {
    const parts = await cancelVisitInTransaction(tx, req);
    return { visitId: req.visitId, bookings: await businessViews(tx, parts) };
  });
}

/**
 * cancelVisit's work in the caller's transaction (the manage page checks the guest's notice on
 * the locked rows first): every part in order, as it is after the cancel.
 */
export async function cancelVisitInTransaction(
  tx: Queryable,
  req: { visitId: string; now: Date; reason?: string | undefined; actor: EventActor },
): Promise<BookingRecord[]> {
  const parts = await visitBookings(tx, req.visitId);
  if (parts.length === 0) throw new AppError('booking.not_found');
  const open = parts.filter((p) => OCCUPYING.has(p.status));
  if (open.length === 0) throw new AppError('booking.invalid_transition', 'No part of the visit can be cancelled.');
  const after = new Map(parts.map((p) => [p.id, p]));
  for (const part of open) {
    const changed = await changeBooking(tx, {
      businessId: null,
      bookingId: part.id,
      action: 'cancel',
      now: req.now,
      reason: req.reason,
      actor: req.actor,
    });
    after.set(part.id, changed);
  }
  return parts.map((p) => after.get(p.id)!);
}
