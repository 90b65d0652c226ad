import { AppError, invalidField } from '../../domain/errors.ts';
import { parseIsoDate } from '../../domain/time/calendar.ts';
import { resolveLocalSlot } from '../../domain/time/local-slot.ts';
import { forStaff } from '../../domain/scheduling/staff-variants.ts';
import type { Queryable } from '../../store/db.ts';
import { findLocationBySlug } from '../../store/locations.ts';
import { requireBusiness } from '../operator/businesses.ts';
import { type ManualCreateInput, manualParts } from './business-side.ts';
import { inOrder, manualPartTimes } from './manual-visit.ts';
import { manualWarnings, type ManualWarningView } from './manual-warnings.ts';

/**
 * POST /admin/v1/businesses/:slug/bookings/check: the warnings a manual create (one service, or a
 * visit) would answer, creating nothing.
 */
export async function checkManualBooking(
  q: Queryable,
  businessSlug: string,
  input: Pick<ManualCreateInput, 'locationSlug' | 'serviceId' | 'staffId' | 'visit' | 'date' | 'startTime'>,
  now: Date,
): Promise<ManualWarningView[]> {
  try {
    parseIsoDate(input.date);
  } catch {
    throw invalidField('body.date', 'is not a real date');
  }
  const business = await requireBusiness(q, businessSlug);
  const location = await findLocationBySlug(q, business.id, input.locationSlug);
  if (!location) throw new AppError('request.not_found', `No location "${input.locationSlug}".`);
  const parts = await manualParts(q, location, input);
  const first = parts[0]!;
  const resolved = resolveLocalSlot(
    location.timezone,
    input.date,
    input.startTime,
    forStaff(first.service, first.staffId).durationMinutes,
    'body',
  );
  // a time the day does not have is the create's to refuse
  if (!resolved) return [];
  const times = manualPartTimes(location, parts, { date: input.date, startTime: input.startTime, startAt: resolved.startAt });
  const found = new Map<string, ManualWarningView>();
  for (const [i, part] of parts.entries()) {
    for (const w of await manualWarnings(q, location, part.service, { ...times[i]!, staffId: part.staffId }, now)) found.set(w.code, w);
  }
  return inOrder(found);
}
