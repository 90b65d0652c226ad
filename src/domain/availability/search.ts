import type { Queryable } from '../../store/db.ts';
import { loadOpenSessions } from '../../store/availability.ts';
import { findServiceById } from '../../store/services.ts';
import { staffForService } from '../../store/staff.ts';
import type { LocationRecord } from '../catalog-records.ts';
import { AppError, invalidField } from '../errors.ts';
import { DAY_MS, MINUTE_MS, parseIsoDate } from '../time/calendar.ts';
import { searchWindow, slotsAtLocation } from './location-slots.ts';
import { localDateOf } from '../time/zone-day.ts';
import { signSlotToken } from './slot-token.ts';
import type { EngineSlot } from './types.ts';
import { MAX_RANGE_DAYS } from './range-limit.ts';

export const SLOT_LIMIT = 500;

export interface SearchInput {
  location: LocationRecord;
  serviceId: string;
  staffId?: string | undefined;
  from: string;
  to: string;
  now: Date;
  secret: Buffer;
}

export interface StandardSlot {
  date: string;
  startTime: string;
  endTime: string;
  serviceId: string;
  staffId: string;
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

function epochDay(path: string, date: string): number {
  try {
    return parseIsoDate(date);
  } catch {
    throw invalidField(path, 'is not a real date');
  }
}

/**
 * An impossible calendar date (2026-02-30) is a malformed field, so it is refused with the schema
 * checks, before scope (decisions.md order of checks); the range rules are business rules, after it.
 */
export function assertRealDates(from: string, to: string): void {
  epochDay('body.dateRange.from', from);
  epochDay('body.dateRange.to', to);
}

export async function searchAvailability(q: Queryable, input: SearchInput): Promise<SearchResult> {
  const firstDay = epochDay('body.dateRange.from', input.from);
  const lastDay = epochDay('body.dateRange.to', input.to);
  if (lastDay < firstDay) throw invalidField('body.dateRange.to', 'must not be before dateRange.from');
  if (lastDay - firstDay > MAX_RANGE_DAYS) {
    throw new AppError('availability.date_range_too_wide', undefined, { maxDays: MAX_RANGE_DAYS });
  }

  const service = await findServiceById(q, input.serviceId);
  if (!service || service.locationId !== input.location.id || !service.active) {
    throw new AppError('catalog.service_not_found');
  }
  if (input.staffId !== undefined) {
    if (!(await staffForService(q, input.staffId, service.id, input.location.id))) {
      throw new AppError('catalog.staff_not_found');
    }
  }
  const mode = service.bookingMode;
  if (!service.onlineBookable) return { slots: [], mode, suppressed: true, total: 0 };

  const now = input.now.getTime();
  const earliest = now + input.location.minNoticeMinutes * MINUTE_MS;
  const latest = now + input.location.horizonDays * DAY_MS;

  if (mode === 'groupSession') {
    const window = searchWindow(service, firstDay, lastDay);
    const sessions = await loadOpenSessions(q, service.id, input.staffId, window.from, window.to);
    const all = sessions.filter((s) => {
      const start = s.start_at.getTime();
      if (start < earliest || start > latest) return false;
      const day = localDateOf(input.location.timezone, s.start_at.getTime());
      return day >= input.from && day <= input.to;
    });
    const slots: GroupSessionSlot[] = all.slice(0, SLOT_LIMIT).map((s) => {
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
    limit: SLOT_LIMIT,
  });
  return { slots: result.slots.map(toStandardSlot), mode, suppressed: false, total: result.total };
}

function toStandardSlot(s: EngineSlot): StandardSlot {
  return { date: s.date, startTime: s.startTime, endTime: s.endTime, serviceId: s.serviceId, staffId: s.staffId };
}
