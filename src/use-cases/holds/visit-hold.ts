import { visitTryOrder } from '../../domain/bookings/visit-plan.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { AppError, isAppError } from '../../domain/errors.ts';
import type { HoldRecord, VisitHold } from '../../domain/holds/record.ts';
import { newId } from '../../domain/ids.ts';
import { parseIsoDate } from '../../domain/time/calendar.ts';
import { heldRange } from '../../domain/bookings/held-range.ts';
import { lockStaffCalendars } from '../../store/bookings.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import { insertHold } from '../../store/holds.ts';
import { inSavepoint } from '../../store/savepoint.ts';
import { inAssignmentOrder } from '../availability/free-staff.ts';
import { visitSlotsAtLocation } from '../availability/visit-slots.ts';

export interface VisitHoldContext {
  businessId: string;
  location: LocationRecord;
  /** the visit's services in order, already checked (visitServices) */
  services: ServiceRecord[];
  holdMinutes: number;
  now: Date;
}

/** holdVisitInTransaction in a transaction of its own (the booking page and the manage page). */
export function createVisitHold(
  db: Db,
  ctx: VisitHoldContext,
  input: { staffId?: string | undefined; slot: { date: string; startTime: string } },
): Promise<VisitHold> {
  return transactionWithRetry(db, (tx) => holdVisitInTransaction(tx, ctx, input));
}

/**
 * Holds a whole visit (salon-scheduling.md "Visits": holds take serviceIds): one hold row per part,
 * the first the hold the guest names, the others pointing at it (migration 031), all in one
 * savepoint, so a part the database refuses undoes the others and the next offered visit is tried.
 * Only a visit a search offers now can be held; a taken time is 409 booking.slot_unavailable.
 */
export async function holdVisitInTransaction(
  tx: Queryable,
  ctx: VisitHoldContext,
  input: { staffId?: string | undefined; slot: { date: string; startTime: string } },
): Promise<VisitHold> {
  const { location, services } = ctx;
  const day = parseIsoDate(input.slot.date);
  const { result, staff } = await visitSlotsAtLocation(tx, {
    location,
    services,
    staffIds: services.map(() => input.staffId),
    from: input.slot.date,
    to: input.slot.date,
    firstDay: day,
    lastDay: day,
    now: ctx.now,
    limit: Number.MAX_SAFE_INTEGER,
  });
  const offered = result.slots.filter((s) => s.startTime === input.slot.startTime);
  const firsts = [...new Set(offered.map((s) => s.staffId))].map((id) => staff.get(id)!);
  const order = (await inAssignmentOrder(tx, location, input.slot.date, firsts)).map((s) => s.id);
  for (const slot of visitTryOrder(offered, order)) {
    try {
      return await inSavepoint(tx, async () => {
        // Every part's staff member locked up front in id order, so two visits never wait in a cycle.
        await lockStaffCalendars(
          tx,
          slot.visit.map((p) => p.staffId),
        );
        const holdId = newId('hld');
        const parts: HoldRecord[] = [];
        for (const [i, part] of slot.visit.entries()) {
          const service = services[i]!;
          const startAt = new Date(part.startAt);
          const endAt = new Date(part.endAt);
          const held = heldRange(startAt, endAt, service);
          parts.push(
            await insertHold(tx, {
              id: i === 0 ? holdId : newId('hld'),
              businessId: ctx.businessId,
              locationId: location.id,
              serviceId: service.id,
              staffId: part.staffId,
              staffName: staff.get(part.staffId)?.name ?? part.staffId,
              slot: { date: slot.date, startTime: part.startTime, endTime: part.endTime },
              timezone: location.timezone,
              startAt,
              endAt,
              occupiedFrom: held.from,
              occupiedTo: held.to,
              processing: held.processing,
              resourceIds: held.resourceIds,
              minutes: ctx.holdMinutes,
              serviceIds: i === 0 ? services.map((s) => s.id) : undefined,
              visitHoldId: i === 0 ? undefined : holdId,
            }),
          );
        }
        return { hold: parts[0]!, parts };
      });
    } catch (err) {
      if (!(isAppError(err) && err.code === 'booking.slot_unavailable')) throw err;
    }
  }
  throw new AppError('booking.slot_unavailable');
}
