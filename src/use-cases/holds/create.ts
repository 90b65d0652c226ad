import { type AttemptGate, SLOT_TAKEN } from '../../concurrency/attempt-gate.ts';
import { standardTime } from '../../domain/bookings/create-placement.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { AppError, invalidField, isAppError } from '../../domain/errors.ts';
import type { HoldRecord } from '../../domain/holds/record.ts';
import { newId } from '../../domain/ids.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { inSavepoint } from '../../store/savepoint.ts';
import { insertHold } from '../../store/holds.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import { forStaff } from '../../domain/scheduling/staff-variants.ts';
import { freeStaffAt, inAssignmentOrder } from '../availability/free-staff.ts';

export interface HoldContext {
  businessId: string;
  location: LocationRecord;
  service: ServiceRecord;
  /** the business's guest settings' holdMinutes (1 to 30) */
  holdMinutes: number;
  now: Date;
  gate: AttemptGate;
}

export interface HoldInput {
  staffId?: string | undefined;
  slot: { date: string; startTime: string };
}

/** createHold in a transaction of its own (the booking page; the API's runs in its idempotent one). */
export function createHold(db: Db, ctx: HoldContext, input: HoldInput): Promise<HoldRecord> {
  return transactionWithRetry(db, (tx) => holdInTransaction(tx, ctx, input));
}

/**
 * Holds one time of one staff member (without staffId, the free ones are tried in the order a
 * create tries them) for holdMinutes. Only a time a search offers now can be held (the same
 * freeStaffAt a create asks); the database has the last word (migration 017), and a clash there
 * moves on to the next free staff member. A taken time is 409 booking.slot_unavailable.
 */
export async function holdInTransaction(tx: Queryable, ctx: HoldContext, input: HoldInput): Promise<HoldRecord> {
  const { location, service } = ctx;
  if (service.bookingMode === 'groupSession') {
    throw invalidField('body.serviceId', 'is a group-session service: its seats are booked by session, not held');
  }
  // Each staff member's own time: their variant's duration and segments (staff-variants.ts); the
  // first call refuses a local time that does not exist before anything is read.
  const timeOf = (staffId: string | undefined) =>
    standardTime(location, forStaff(service, staffId), input.slot, 'booking.slot_unavailable');
  timeOf(input.staffId);
  const candidates = await freeStaffAt(tx, { location, service, staffId: input.staffId, ...input.slot, now: ctx.now });
  if (input.staffId !== undefined && candidates.unknownStaff) throw new AppError('catalog.staff_not_found');
  const holdId = newId('hld');
  for (const staff of await inAssignmentOrder(tx, location, input.slot.date, candidates.free)) {
    const { resolved, held } = timeOf(staff.id);
    const range = { from: held.from.getTime(), to: held.to.getTime() };
    const row = {
      id: holdId,
      businessId: ctx.businessId,
      locationId: location.id,
      serviceId: service.id,
      staffId: staff.id,
      staffName: staff.name,
      slot: resolved.slot,
      timezone: location.timezone,
      startAt: resolved.startAt,
      endAt: resolved.endAt,
      occupiedFrom: held.from,
      occupiedTo: held.to,
      processing: held.processing,
      resourceIds: held.resourceIds,
      minutes: ctx.holdMinutes,
    };
    // The same gate key as a booking of this staff member's time: concurrent attempts on one time
    // from this process wait in memory and learn from the first one's outcome. A clash undoes only
    // its own savepoint, so the next staff member can be tried in the same transaction.
    const hold = await ctx.gate.run(`staff:${staff.id}`, range, STAFF_TIME, () => inSavepoint(tx, () => insertHold(tx, row)));
    if (hold !== SLOT_TAKEN) return hold;
  }
  throw new AppError('booking.slot_unavailable');
}

const STAFF_TIME = { exclusive: true, isRefusal: (err: unknown) => isAppError(err) && err.code === 'booking.slot_unavailable' };
