import type { BusinessBookingView } from '../../domain/bookings/business-view.ts';
import { nextPartStart } from '../../domain/availability/visit.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import type { ManualAuthor } from '../../domain/bookings/source.ts';
import { newId } from '../../domain/ids.ts';
import { instantToLocal } from '../../domain/time/wall-clock.ts';
import { forStaff } from '../../domain/scheduling/staff-variants.ts';
import { MANUAL_WARNINGS } from '../../domain/bookings/manual-warnings.ts';
import { lockStaffCalendars } from '../../store/bookings.ts';
import type { Queryable } from '../../store/db.ts';
import { insertVisit } from '../../store/visits.ts';
import { businessView } from './business-view.ts';
import { createManualBooking, type ManualBookingInput } from './manual.ts';
import { manualWarnings, type ManualWarningView } from './manual-warnings.ts';

export interface ManualVisitPart {
  service: ServiceRecord;
  staffId: string;
}

/** Where each part of a manual visit starts, as local date and time: back to back, as a guest's visit. */
export function manualPartTimes(
  location: LocationRecord,
  parts: ReadonlyArray<ManualVisitPart>,
  first: { date: string; startTime: string; startAt: Date },
): Array<{ date: string; startTime: string }> {
  const times = [{ date: first.date, startTime: first.startTime }];
  let at = first.startAt.getTime();
  for (let i = 1; i < parts.length; i++) {
    const previous = forStaff(parts[i - 1]!.service, parts[i - 1]!.staffId);
    at = nextPartStart(at + previous.durationMinutes * 60_000, previous, parts[i]!.service);
    const local = instantToLocal(new Date(at), location.timezone);
    times.push({ date: local.date, startTime: local.time });
  }
  return times;
}

/**
 * A visit the front desk books itself: every part confirmed at once, back to back (the part before's
 * buffer after and the next one's buffer before between them), each with its staff member, in the
 * caller's transaction: all parts or none. Odd times warn as a single manual booking does.
 */
export async function createManualVisit(
  tx: Queryable,
  location: LocationRecord,
  parts: ReadonlyArray<ManualVisitPart>,
  input: Omit<ManualBookingInput, 'staffId'>,
  by: ManualAuthor,
  now: Date,
): Promise<{ booking: BusinessBookingView; warnings: ManualWarningView[]; visit: { visitId: string; bookings: BusinessBookingView[] } }> {
  const visitId = newId('vst');
  await insertVisit(tx, { id: visitId, businessId: location.businessId, locationId: location.id });
  // every part's staff member in id order before any row, as a guest's visit does
  await lockStaffCalendars(
    tx,
    parts.map((p) => p.staffId),
  );
  const bookings: BusinessBookingView[] = [];
  const warnings = new Map<string, ManualWarningView>();
  let times: Array<{ date: string; startTime: string }> | undefined;
  for (const [i, part] of parts.entries()) {
    const at = times?.[i] ?? { date: input.date, startTime: input.startTime };
    const record = await createManualBooking(tx, location, part.service, { ...input, ...at, staffId: part.staffId }, by, now, visitId);
    if (i === 0) times = manualPartTimes(location, parts, { ...at, startAt: record.startAt });
    bookings.push(await businessView(tx, record));
    for (const w of await manualWarnings(tx, location, part.service, { ...at, staffId: part.staffId }, now)) warnings.set(w.code, w);
  }
  return { booking: bookings[0]!, warnings: inOrder(warnings), visit: { visitId, bookings } };
}

/** Each warning once, in the order the single booking's are listed. */
export function inOrder(found: ReadonlyMap<string, ManualWarningView>): ManualWarningView[] {
  return MANUAL_WARNINGS.flatMap((code) => {
    const w = found.get(code);
    return w ? [w] : [];
  });
}
