import type { LocationRecord, ServiceRecord } from '../../domain/catalog-records.ts';
import { formatIsoDate, parseIsoDate } from '../../domain/time/calendar.ts';
import { localDateOf, wallClock, zoneDay } from '../../domain/time/zone-day.ts';
import type { Queryable } from '../../store/db.ts';
import type { CacheUse } from '../read-cache.ts';
import { type GroupSessionSlot, searchAvailability, type StandardSlot } from '../availability/search.ts';

/** One group session as the time step offers it. */
export interface PageSession {
  sessionId: string;
  slotToken: string;
  startTime: string;
  staffName: string;
  remainingSeats: number;
}

/** A day of the week the time step shows: its free start times, or its sessions. */
export interface PageDay {
  date: string;
  times: string[];
  sessions: PageSession[];
}

/**
 * A week holds at most 7 × 1,440 distinct starts; the slots of every staff member of it are many
 * more (one per staff member and start), so the API's limit of 500 would cut a busy week short.
 */
const WEEK_SLOT_LIMIT = 100_000;

/**
 * The time step: the free starts of each day of the week from `from` (7 days, or `days`), through the same
 * search as POST /v1/availability/search (notice, horizon and every rule of the engine), merged
 * across staff for `Any staff`; a group-session service's open sessions with their seats left. For a
 * visit the search is the visit's (`serviceIds`): each start is where its first part begins.
 */
export async function weekTimes(
  q: Queryable,
  a: {
    location: LocationRecord;
    service: ServiceRecord;
    /** a visit: its services in order, the first being `service` (salon-scheduling.md "Visits") */
    visit?: readonly ServiceRecord[] | undefined;
    staffId: string | undefined;
    from: string;
    now: Date;
    secret: Buffer;
    /** 7 (a week) unless asked */
    days?: number;
    cache?: CacheUse | undefined;
  },
): Promise<PageDay[]> {
  const first = parseIsoDate(a.from);
  const dates = Array.from({ length: a.days ?? 7 }, (_, i) => formatIsoDate(first + i));
  const result = await searchAvailability(q, {
    location: a.location,
    serviceId: a.service.id,
    serviceIds: a.visit && a.visit.length > 1 ? a.visit.map((s) => s.id) : undefined,
    staffId: a.staffId,
    from: dates[0]!,
    to: dates[dates.length - 1]!,
    now: a.now,
    secret: a.secret,
    slotLimit: WEEK_SLOT_LIMIT,
    cache: a.cache,
  });
  const days = new Map<string, PageDay>(dates.map((date) => [date, { date, times: [], sessions: [] }]));
  if (result.mode === 'groupSession') {
    const tz = a.location.timezone;
    for (const s of result.slots as GroupSessionSlot[]) {
      const start = Date.parse(s.startAtUtc);
      const date = localDateOf(tz, start);
      days.get(date)?.sessions.push({
        sessionId: s.sessionId,
        slotToken: s.slotToken,
        startTime: wallClock(zoneDay(tz, parseIsoDate(date)), start),
        staffName: s.staffName ?? '',
        remainingSeats: s.remainingSeats,
      });
    }
  } else {
    const seen = new Set<string>();
    for (const s of result.slots as StandardSlot[]) {
      const key = `${s.date} ${s.startTime}`;
      if (seen.has(key)) continue;
      seen.add(key);
      days.get(s.date)?.times.push(s.startTime);
    }
    for (const d of days.values()) d.times.sort();
  }
  return [...days.values()];
}

/** Today in the location's zone, and the last date its horizon reaches. */
export function bookableDates(location: LocationRecord, now: Date): { today: string; last: string } {
  const today = localDateOf(location.timezone, now.getTime());
  const last = localDateOf(location.timezone, now.getTime() + location.horizonDays * 86_400_000);
  return { today, last };
}
