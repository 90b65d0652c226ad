/**
 * Seeded salon data for bench/availability-salon-engine.ts (salon-scheduling.md "Speed"): one
 * Budapest location with 10 staff, 3 resources with quantities, services with processing time,
 * and 2,000 bookings over 31 days that span the spring-forward Sunday (2026-03-29). Bookings are
 * placed as the database would accept them (no staff overlap on work parts, a free unit of each
 * resource), so the engine sees a realistic, mostly full month rather than overlapping noise.
 */
import type { EngineResource, EngineService, EngineStaff, Interval, WorkingInterval } from '../src/domain/availability/types.ts';
import { staffBlocks } from '../src/domain/scheduling/segments.ts';
import { isoWeekday, parseIsoDate, MINUTE_MS } from '../src/domain/time/calendar.ts';
import { localStart, zoneDay } from '../src/domain/time/zone-day.ts';
import { mulberry32 } from './seeded-random.ts';

export const TIMEZONE = 'Europe/Budapest';
export const FROM = '2026-03-16';
export const TO = '2026-04-15';
export const BOOKINGS = 2_000;

export interface BenchService extends EngineService {
  resourceIds: string[];
  /** relative weight among the bookings */
  weight: number;
}

export const RESOURCES = [
  { id: 'res_basin', name: 'Wash basin', quantity: 4 },
  { id: 'res_station', name: 'Colour station', quantity: 2 },
  { id: 'res_room', name: 'Treatment room', quantity: 2 },
] as const;

export const SERVICES: BenchService[] = [
  { id: 'svc_cut', durationMinutes: 30, bufferBeforeMinutes: 0, bufferAfterMinutes: 5, resourceIds: [], weight: 55 },
  {
    id: 'svc_colour',
    durationMinutes: 90,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 10,
    segments: [
      { kind: 'work', minutes: 30 },
      { kind: 'processing', minutes: 45 },
      { kind: 'work', minutes: 15 },
    ],
    resourceIds: ['res_basin'],
    weight: 22,
  },
  {
    id: 'svc_balayage',
    durationMinutes: 150,
    bufferBeforeMinutes: 5,
    bufferAfterMinutes: 10,
    segments: [
      { kind: 'work', minutes: 45 },
      { kind: 'processing', minutes: 40 },
      { kind: 'work', minutes: 20 },
      { kind: 'processing', minutes: 30 },
      { kind: 'work', minutes: 15 },
    ],
    resourceIds: ['res_basin', 'res_station'],
    weight: 8,
  },
  {
    id: 'svc_facial',
    durationMinutes: 60,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    segments: [
      { kind: 'work', minutes: 15 },
      { kind: 'processing', minutes: 30 },
      { kind: 'work', minutes: 15 },
    ],
    resourceIds: ['res_room'],
    weight: 15,
  },
];

/** Half the staff work Mon-Sat 09:00-19:00, the other half Tue-Sat 11:00-20:00 (a late shift). */
function hoursOf(i: number): WorkingInterval[] {
  return i % 2 === 0
    ? [1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, startMinute: 9 * 60, endMinute: 19 * 60 }))
    : [2, 3, 4, 5, 6].map((weekday) => ({ weekday, startMinute: 11 * 60, endMinute: 20 * 60 }));
}

const overlaps = (list: readonly Interval[], start: number, end: number) => list.some((b) => b.start < end && start < b.end);

export interface SalonMonth {
  staff: EngineStaff[];
  /** every resource's units with what takes them */
  resources: Map<string, EngineResource>;
  placed: number;
  attempts: number;
}

export function salonMonth(seed = 26): SalonMonth {
  const random = mulberry32(seed);
  const firstDay = parseIsoDate(FROM);
  const days = parseIsoDate(TO) - firstDay + 1;
  const staff: EngineStaff[] = Array.from({ length: 10 }, (_, i) => ({
    id: `stf_${String(i).padStart(2, '0')}`,
    workingHours: hoursOf(i),
    timeOff: [],
    busy: [],
  }));
  // One afternoon off each: time off is part of the occupancy the engine merges.
  for (const [i, s] of staff.entries()) {
    const day = zoneDay(TIMEZONE, firstDay + 3 + i * 2);
    s.timeOff.push({ start: localStart(day, 14 * 60)!, end: localStart(day, 20 * 60)! });
  }
  const resources = new Map<string, EngineResource>(
    RESOURCES.map((r) => [r.id, { id: r.id, quantity: r.quantity, units: Array.from({ length: r.quantity }, () => []) }]),
  );
  const totalWeight = SERVICES.reduce((n, s) => n + s.weight, 0);
  const pickService = (): BenchService => {
    let w = random() * totalWeight;
    for (const s of SERVICES) {
      w -= s.weight;
      if (w < 0) return s;
    }
    return SERVICES.at(-1)!;
  };

  let placed = 0;
  let attempts = 0;
  while (placed < BOOKINGS && attempts < 1_000_000) {
    attempts++;
    const service = pickService();
    const member = staff[Math.floor(random() * staff.length)]!;
    const epochDay = firstDay + Math.floor(random() * days);
    const hours = member.workingHours.find((h) => h.weekday === isoWeekday(epochDay));
    if (!hours) continue;
    const minute = hours.startMinute + Math.floor(random() * ((hours.endMinute - hours.startMinute) / 15)) * 15;
    if (minute + service.durationMinutes > hours.endMinute) continue;
    const start = localStart(zoneDay(TIMEZONE, epochDay), minute);
    if (start === null) continue;
    const end = start + service.durationMinutes * MINUTE_MS;
    const blocks = staffBlocks({ ...service, segments: service.segments ?? null }).map(([a, b]) => ({ start: start + a, end: start + b }));
    if (blocks.some((b) => overlaps(member.busy, b.start, b.end) || overlaps(member.timeOff, b.start, b.end))) continue;
    // the lowest free unit of each resource, as the database assigns them
    const units = service.resourceIds.map((id) => resources.get(id)!.units.find((u) => !overlaps(u, start, end)));
    if (units.some((u) => u === undefined)) continue;
    for (const u of units) u!.push({ start, end });
    member.busy.push(...blocks);
    placed++;
  }
  return { staff, resources, placed, attempts };
}
