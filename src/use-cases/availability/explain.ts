import { explainTime, type EngineReason } from '../../domain/availability/explain.ts';
import { searchWindow } from '../../domain/availability/search-window.ts';
import type { LocationRecord } from '../../domain/catalog-records.ts';
import { AppError, invalidField } from '../../domain/errors.ts';
import { parseIsoDate } from '../../domain/time/calendar.ts';
import { parseHhMm } from '../../domain/time/hh-mm.ts';
import { localStart, zoneDay } from '../../domain/time/zone-day.ts';
import { type ServiceShape, staffBlocks } from '../../domain/scheduling/segments.ts';
import { forStaff, withServiceOverrides } from '../../domain/scheduling/staff-variants.ts';
import { findInTheWay, loadEngineStaff } from '../../store/availability.ts';
import { neededResources } from './location-slots.ts';
import { quotaUsedUp } from './quota.ts';
import type { Queryable } from '../../store/db.ts';
import { findServiceById } from '../../store/services.ts';
import { findStaffById } from '../../store/staff.ts';

/** Every reason explain gives (salon-scheduling.md, "Explain"); `resource_unavailable` comes with resources. */
export type ExplainReason =
  | EngineReason
  | 'location_booking_disabled'
  | 'service_not_bookable_online'
  | 'staff_does_not_offer_service'
  | 'quota_exceeded';

export interface StaffExplanationView {
  staffId: string;
  staffName: string;
  bookable: boolean;
  reasons: ExplainReason[];
  /** with `resource_unavailable`: the resources with no free unit */
  resources?: Array<{ resourceId: string; name: string }>;
  /** operator only: the bookings and holds in the way of `booked` and `held` */
  bookingIds?: string[];
  holdIds?: string[];
}

export interface ExplanationView {
  bookable: boolean;
  date: string;
  startTime: string;
  timezone: string;
  staff: StaffExplanationView[];
}

export interface ExplainInput {
  location: LocationRecord;
  serviceId: string;
  staffId?: string | undefined;
  date: string;
  startTime: string;
  now: Date;
  /** the operator's explain: names the bookings and holds in the way */
  withIds: boolean;
}

/**
 * POST /v1/availability/explain and the operator's: why one local time is or is not bookable, per
 * staff member who could be asked (the one given, or every active one who performs the service).
 * The engine's reasons come from the same inputs a search of that day loads (loadEngineStaff), so
 * `bookable` is what the search offers; the location's and the service's switches and a staff
 * member who does not perform the service are added here.
 */
export async function explainAvailability(q: Queryable, input: ExplainInput): Promise<ExplanationView> {
  const { location } = input;
  let epochDay: number;
  try {
    epochDay = parseIsoDate(input.date);
  } catch {
    throw invalidField('body.date', 'is not a real date');
  }
  const service = await findServiceById(q, input.serviceId);
  if (!service || service.locationId !== location.id || !service.active) throw new AppError('catalog.service_not_found');
  if (service.bookingMode === 'groupSession') {
    throw invalidField('body.serviceId', 'is a group-session service: its times are its sessions, listed by the search');
  }
  const window = searchWindow(service, epochDay, epochDay);
  const loaded = withServiceOverrides(await loadEngineStaff(q, location.id, service.id, input.staffId, window.from, window.to), service);
  const needed = await neededResources(q, service, window);
  const resourceNames = new Map(needed.resources.map((r) => [r.id, r.name]));
  const outsiders: Array<{ id: string; name: string }> = [];
  if (input.staffId !== undefined && loaded.length === 0) {
    const staff = await findStaffById(q, input.staffId);
    if (!staff || staff.locationId !== location.id || !staff.active) throw new AppError('catalog.staff_not_found');
    outsiders.push({ id: staff.id, name: staff.name });
  }
  const engine = explainTime({
    timezone: location.timezone,
    slotIntervalMinutes: location.slotIntervalMinutes,
    minNoticeMinutes: location.minNoticeMinutes,
    horizonDays: location.horizonDays,
    now: input.now.getTime(),
    date: input.date,
    startTime: input.startTime,
    service,
    staff: loaded,
    resources: needed.resources,
  });
  const switches: ExplainReason[] = [];
  if (!location.bookingEnabled) switches.push('location_booking_disabled');
  if (!service.onlineBookable) switches.push('service_not_bookable_online');
  if (await quotaUsedUp(q, location.businessId, input.now)) switches.push('quota_exceeded');
  const staff: StaffExplanationView[] = [];
  for (const [i, e] of engine.entries()) {
    const reasons: ExplainReason[] = [...switches, ...e.reasons];
    const view: StaffExplanationView = { staffId: e.staffId, staffName: loaded[i]!.name, bookable: reasons.length === 0, reasons };
    if (e.resourceIds) view.resources = e.resourceIds.map((id) => ({ resourceId: id, name: resourceNames.get(id) ?? id }));
    if (input.withIds) Object.assign(view, await inTheWay(q, e.staffId, e.reasons, input, forStaff(service, e.staffId), location));
    staff.push(view);
  }
  for (const o of outsiders) {
    staff.push({
      staffId: o.id,
      staffName: o.name,
      bookable: false,
      reasons: [...switches, 'staff_does_not_offer_service'],
      ...(input.withIds ? { bookingIds: [], holdIds: [] } : {}),
    });
  }
  staff.sort((a, b) => a.staffName.localeCompare(b.staffName) || (a.staffId < b.staffId ? -1 : 1));
  return { bookable: staff.some((s) => s.bookable), date: input.date, startTime: input.startTime, timezone: location.timezone, staff };
}

/** The ids behind `booked` and `held`: the bookings and holds overlapping the time with the service's buffers. */
async function inTheWay(
  q: Queryable,
  staffId: string,
  reasons: readonly EngineReason[],
  input: ExplainInput,
  service: ServiceShape,
  location: LocationRecord,
): Promise<{ bookingIds: string[]; holdIds: string[] }> {
  if (!reasons.includes('booked') && !reasons.includes('held')) return { bookingIds: [], holdIds: [] };
  const start = localStart(zoneDay(location.timezone, parseIsoDate(input.date)), parseHhMm(input.startTime));
  if (start === null) return { bookingIds: [], holdIds: [] };
  const found = { bookingIds: new Set<string>(), holdIds: new Set<string>() };
  // only the parts that take the staff member's time: a booking in the processing time is not in the way
  for (const [from, to] of staffBlocks(service)) {
    const way = await findInTheWay(q, staffId, new Date(start + from), new Date(start + to));
    for (const id of way.bookingIds) found.bookingIds.add(id);
    for (const id of way.holdIds) found.holdIds.add(id);
  }
  return { bookingIds: [...found.bookingIds].sort(), holdIds: [...found.holdIds].sort() };
}
