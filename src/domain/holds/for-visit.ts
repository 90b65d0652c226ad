import type { ServiceRecord } from '../catalog-records.ts';
import { AppError } from '../errors.ts';
import { type HeldRange, heldRange } from '../bookings/held-range.ts';
import { MINUTE_MS } from '../time/calendar.ts';
import type { HoldRecord, VisitHold } from './record.ts';

/**
 * Whether a visit's create may use this visit's hold (checkHoldForCreate's rules, part by part): it
 * exists in the business, every part still lives, it has not started, and it names the same
 * location, services in the same order, staff members (where the body names them) and start; each
 * part's time as its service now takes it (duration, buffers) is the time held. The parts' held
 * ranges come back for the bookings.
 */
export function checkVisitHold(
  v: VisitHold | undefined,
  want: {
    locationId: string;
    parts: ReadonlyArray<{ serviceId: string; staffId?: string | undefined }>;
    slot: { date: string; startTime: string };
  },
  now: Date,
  services: readonly ServiceRecord[],
): { parts: HoldRecord[]; ranges: HeldRange[] } {
  if (!v) throw new AppError('booking.hold_not_found');
  if (v.parts.some((p) => p.status !== 'active')) throw new AppError('booking.hold_expired');
  if (v.hold.startAt.getTime() <= now.getTime()) throw new AppError('booking.hold_expired', 'The held time has already started.');
  const ranges = v.parts.map((p, i) => (services[i] ? heldRange(p.startAt, p.endAt, services[i]) : null));
  const same =
    v.hold.locationId === want.locationId &&
    v.parts.length === want.parts.length &&
    v.hold.slot.date === want.slot.date &&
    v.hold.slot.startTime === want.slot.startTime &&
    v.parts.every((p, i) => {
      const w = want.parts[i]!;
      const range = ranges[i];
      return (
        p.serviceId === w.serviceId &&
        (w.staffId === undefined || p.staffId === w.staffId) &&
        range !== null &&
        range !== undefined &&
        p.endAt.getTime() - p.startAt.getTime() === services[i]!.durationMinutes * MINUTE_MS &&
        range.from.getTime() === p.held.from.getTime() &&
        range.to.getTime() === p.held.to.getTime()
      );
    });
  if (!same) throw new AppError('booking.hold_mismatch');
  return { parts: v.parts, ranges: ranges as HeldRange[] };
}
