import type { LocationRecord, ServiceRecord } from '../catalog-records.ts';
import { AppError } from '../errors.ts';
import { parseIsoDate } from '../time/calendar.ts';
import { type ResolvedSlot, resolveLocalSlot } from '../time/local-slot.ts';
import { localDateOf, wallClock, zoneDay } from '../time/zone-day.ts';
import type { Placement, SlotGone } from './create-plan.ts';
import { type HeldRange, heldRange, plainRange } from './held-range.ts';

/** A standard booking's asked-for local time as instants and its held range; a DST gap is a lost slot. */
export function standardTime(
  location: LocationRecord,
  service: ServiceRecord,
  slot: { date: string; startTime: string },
  slotGone: SlotGone,
): { resolved: ResolvedSlot; held: HeldRange } {
  const resolved = resolveLocalSlot(location.timezone, slot.date, slot.startTime, service.durationMinutes);
  if (!resolved) throw new AppError(slotGone, 'That local time does not exist on that day (DST change).');
  return { resolved, held: heldRange(resolved.startAt, resolved.endAt, service) };
}

/** A taken group seat as a placement; a session that has started is no longer bookable. */
export function seatPlacement(
  timezone: string,
  seat: { id: string; staffId: string; staffName: string; startAt: Date; endAt: Date; priceMinor: number | null },
  now: Date,
): Placement {
  if (seat.startAt.getTime() <= now.getTime()) throw new AppError('booking.slot_unavailable', 'The session has started.');
  const date = localDateOf(timezone, seat.startAt.getTime());
  const day = zoneDay(timezone, parseIsoDate(date));
  return {
    staffId: seat.staffId,
    staffName: seat.staffName,
    sessionId: seat.id,
    startAt: seat.startAt,
    endAt: seat.endAt,
    slot: { date, startTime: wallClock(day, seat.startAt.getTime()), endTime: wallClock(day, seat.endAt.getTime()) },
    held: plainRange(seat.startAt, seat.endAt),
    seatPriceMinor: seat.priceMinor,
  };
}
