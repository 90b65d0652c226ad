import { searchWindow } from '../../domain/availability/search-window.ts';
import { computeVisitSlots, type VisitResult } from '../../domain/availability/visit.ts';
import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { AppError, invalidField } from '../../domain/errors.ts';
import { loadEngineStaff } from '../../store/availability.ts';
import { shapeOverride } from '../../domain/scheduling/staff-variants.ts';
import type { Queryable } from '../../store/db.ts';
import { findServiceById } from '../../store/services.ts';
import { staffForService } from '../../store/staff.ts';
import { neededResources } from './location-slots.ts';

export interface StaffName {
  id: string;
  name: string;
  position: number | null;
}

/**
 * The services of a visit, in order, as the location offers them: each one of the location's
 * active appointment services (a group session has its own times and cannot be a part), and with
 * `staffId` performed by that staff member. `path` names the body field for a refusal.
 */
export async function visitServices(
  q: Queryable,
  location: LocationRecord,
  serviceIds: readonly string[],
  staffIds: ReadonlyArray<string | undefined>,
  path: string,
): Promise<ServiceRecord[]> {
  const services: ServiceRecord[] = [];
  for (const [i, id] of serviceIds.entries()) {
    const service = await findServiceById(q, id);
    if (!service || service.locationId !== location.id || !service.active) throw new AppError('catalog.service_not_found');
    if (service.bookingMode === 'groupSession')
      throw invalidField(`${path}[${i}]`, 'is a group-session service: it cannot be part of a visit');
    const staffId = staffIds[i];
    if (staffId !== undefined && !(await staffForService(q, staffId, service.id, location.id)))
      throw new AppError('catalog.staff_not_found');
    services.push(service);
  }
  return services;
}

/**
 * Runs the visit engine (domain/availability/visit.ts) over local dates with the location's rules:
 * each part's staff (one given per part, or all who perform its service) and resources. The search
 * and the visit's own create and hold come through here, so a visit can only take a time a search
 * could have shown.
 */
export async function visitSlotsAtLocation(
  q: Queryable,
  a: {
    location: LocationRecord;
    services: readonly ServiceRecord[];
    staffIds: ReadonlyArray<string | undefined>;
    from: string;
    to: string;
    firstDay: number;
    lastDay: number;
    now: Date;
    limit: number;
  },
): Promise<{ result: VisitResult; staff: Map<string, StaffName> }> {
  const staff = new Map<string, StaffName>();
  const parts = [];
  for (const [i, service] of a.services.entries()) {
    const window = searchWindow(service, a.firstDay, a.lastDay);
    // A stylist whose variant changes the part's length or processing is not offered for it in a
    // visit yet: the later parts' starts would then depend on who does each part (docs/scheduling.md
    // "Visits"). A variant of the price alone applies as in a single booking.
    const members = (await loadEngineStaff(q, a.location.id, service.id, a.staffIds[i], window.from, window.to)).filter(
      (m) => shapeOverride(service, m.id) === undefined,
    );
    for (const m of members) staff.set(m.id, { id: m.id, name: m.name, position: m.position });
    const { resources } = await neededResources(q, service, window);
    parts.push({
      service: {
        id: service.id,
        durationMinutes: service.durationMinutes,
        bufferBeforeMinutes: service.bufferBeforeMinutes,
        bufferAfterMinutes: service.bufferAfterMinutes,
        segments: service.segments,
      },
      staff: members,
      resources,
    });
  }
  const result = computeVisitSlots({
    timezone: a.location.timezone,
    slotIntervalMinutes: a.location.slotIntervalMinutes,
    minNoticeMinutes: a.location.minNoticeMinutes,
    horizonDays: a.location.horizonDays,
    now: a.now.getTime(),
    from: a.from,
    to: a.to,
    parts,
    limit: a.limit,
  });
  return { result, staff };
}
