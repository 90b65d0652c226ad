import type { LocationRecord } from '../../domain/catalog-records.ts';
import { searchDays } from '../../domain/availability/date-range.ts';
import { searchWindow } from '../../domain/availability/search-window.ts';
import { signSlotToken } from '../../domain/availability/slot-token.ts';
import type { EngineSlot } from '../../domain/availability/types.ts';
import { AppError } from '../../domain/errors.ts';
import { DAY_MS, MINUTE_MS } from '../../domain/time/calendar.ts';
import { localDateOf } from '../../domain/time/zone-day.ts';
import { loadOpenSessions } from '../../store/availability.ts';
import type { Queryable } from '../../store/db.ts';
import { findServiceById } from '../../store/services.ts';
import { staffForService } from '../../store/staff.ts';
import { slotsAtLocation } from './location-slots.ts';
import { quotaUsedUp } from './quota.ts';
import { searchVisitAvailability } from './visit-search.ts';
import { catalogueRead, occupancyRead, type CacheUse } from '../read-cache.ts';

export const SLOT_LIMIT = 500;

export interface SearchInput {
  location: LocationRecord;
  /** the caches to answer reads from; none: every read goes to the database */
  cache?: CacheUse | undefined;
  serviceId: string;
  /** a visit (salon-scheduling.md "Visits"): 2 to 4 services back to back, instead of serviceId */
  serviceIds?: readonly string[] | undefined;
  staffId?: string | undefined;
  from: string;
  to: string;
  now: Date;
  secret: Buffer;
  /** at most this many slots (default SLOT_LIMIT); the booking page shows a whole week at once */
  slotLimit?: number | undefined;
}

export interface StandardSlot {
  date: string;
  startTime: string;
  endTime: string;
  serviceId: string;
  staffId: string;
  /** a visit's slot only: its parts */
  visit?: Array<{ serviceId: string; staffId: string; startTime: string; endTime: string }>;
}

export interface GroupSessionSlot {
  kind: 'group';
  sessionId: string;
  staffId: string;
  staffName: string | null;
  startAtUtc: string;
  endAtUtc: string;
  capacityMax: number;
  remainingSeats: number;
  priceMinor: number | null;
  slotToken: string;
}

export interface SearchResult {
  slots: StandardSlot[] | GroupSessionSlot[];
  mode: 'standard' | 'groupSession';
  suppressed: boolean;
  total: number;
}

export async function searchAvailability(q: Queryable, input: SearchInput): Promise<SearchResult> {
  if (input.serviceIds !== undefined) {
    const visit = await searchVisitAvailability(q, { ...input, serviceIds: input.serviceIds, slotLimit: input.slotLimit ?? SLOT_LIMIT });
    return { ...visit, mode: 'standard' };
  }
  const { firstDay, lastDay } = searchDays(input.from, input.to);

  const { cache } = input;
  const service = await catalogueRead(cache, ['service', input.serviceId], () => findServiceById(q, input.serviceId));
  if (!service || service.locationId !== input.location.id || !service.active) {
    throw new AppError('catalog.service_not_found');
  }
  if (input.staffId !== undefined) {
    const staffId = input.staffId;
    const performs = await catalogueRead(cache, ['performs', staffId, service.id, input.location.id], () =>
      staffForService(q, staffId, service.id, input.location.id),
    );
    if (!performs) {
      throw new AppError('catalog.staff_not_found');
    }
  }
  const mode = service.bookingMode;
  if (!service.onlineBookable) return { slots: [], mode, suppressed: true, total: 0 };
  // No create can succeed this month: offering times would only lead guests to a refusal.
  if (await quotaUsedUp(q, input.location.businessId, input.now, cache)) return { slots: [], mode, suppressed: true, total: 0 };

  const now = input.now.getTime();
  const earliest = now + input.location.minNoticeMinutes * MINUTE_MS;
  const latest = now + input.location.horizonDays * DAY_MS;

  if (mode === 'groupSession') {
    const window = searchWindow(service, firstDay, lastDay);
    const sessions = await occupancyRead(
      cache,
      ['sessions', service.id, input.staffId, window.from, window.to],
      () => loadOpenSessions(q, service.id, input.staffId, window.from, window.to),
      (rows) => rows.length + 1,
    );
    const all = sessions.filter((s) => {
      const start = s.start_at.getTime();
      if (start < earliest || start > latest) return false;
      const day = localDateOf(input.location.timezone, s.start_at.getTime());
      return day >= input.from && day <= input.to;
    });
    const slots: GroupSessionSlot[] = all.slice(0, input.slotLimit ?? SLOT_LIMIT).map((s) => {
      const remaining = s.capacity_max - s.seats_taken;
      return {
        kind: 'group',
        sessionId: s.id,
        staffId: s.staff_id,
        staffName: s.staff_name,
        startAtUtc: s.start_at.toISOString(),
        endAtUtc: s.end_at.toISOString(),
        capacityMax: s.capacity_max,
        remainingSeats: remaining,
        priceMinor: s.price_minor,
        slotToken: signSlotToken(input.secret, s.id, remaining, input.now),
      };
    });
    return { slots, mode, suppressed: false, total: all.length };
  }

  const { result } = await slotsAtLocation(q, {
    location: input.location,
    service,
    staffId: input.staffId,
    from: input.from,
    to: input.to,
    firstDay,
    lastDay,
    now: input.now,
    limit: input.slotLimit ?? SLOT_LIMIT,
    cache,
  });
  return { slots: result.slots.map(toStandardSlot), mode, suppressed: false, total: result.total };
}

function toStandardSlot(s: EngineSlot): StandardSlot {
  return { date: s.date, startTime: s.startTime, endTime: s.endTime, serviceId: s.serviceId, staffId: s.staffId };
}
