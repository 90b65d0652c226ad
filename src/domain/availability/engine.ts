/**
 * The slot engine: which (date, start time, staff member) combinations can be booked for a
 * service. Pure and synchronous; all wall-clock handling is delegated to time/zone-day.ts.
 */
import { formatIsoDate, isoWeekday, parseIsoDate, DAY_MS, MINUTE_MS } from '../time/calendar.ts';
import { formatHhMm } from '../time/hh-mm.ts';
import { buildResourceUnits, isOccupied, type ResourceUnits, resourcesFree } from './occupancy.ts';
import { staffBlocks } from '../scheduling/segments.ts';
import { prepareSchedules, type StaffSchedule } from './staff-schedule.ts';
import { localBoundary, localStart, wallClock, zoneDay, type ZoneDay } from '../time/zone-day.ts';
import type { EngineInput, EngineResult, EngineService, EngineSlot, StaffServiceOverride } from './types.ts';

/** How long one staff member's appointment lasts and which parts of it take their time. */
interface Shape {
  durationMs: number;
  /** the parts that take the staff member's time, as offsets from the start (staffBlocks) */
  blocks: Array<[number, number]>;
}

interface Rules {
  step: number;
  /** per schedule (index = rank): the service's shape, or the staff member's variant of it */
  shapes: Shape[];
  /** the needed resources' units (resources.length 0: none needed) */
  resources: ResourceUnits;
  earliestStart: number;
  latestStart: number;
}

export function computeSlots(input: EngineInput): EngineResult {
  // Whole minutes keep the grid on HH:MM values and the per-date sort keys collision-free.
  if (!Number.isInteger(input.slotIntervalMinutes) || input.slotIntervalMinutes <= 0) {
    throw new RangeError('slotIntervalMinutes must be a positive integer');
  }
  const firstDay = parseIsoDate(input.from);
  const lastDay = parseIsoDate(input.to);
  const schedules = prepareSchedules(input.staff);
  const { service } = input;
  const serviceShape = shapeOf(service, undefined);
  const rules: Rules = {
    step: input.slotIntervalMinutes,
    // a staff member with a stylist variant works to their own duration and segments; the same
    // candidate check then runs with their shape, so there is still one engine
    shapes: schedules.map((s) => (s.serviceOverride ? shapeOf(service, s.serviceOverride) : serviceShape)),
    resources: buildResourceUnits(input.resources ?? []),
    earliestStart: input.now + input.minNoticeMinutes * MINUTE_MS,
    latestStart: input.now + input.horizonDays * DAY_MS,
  };
  // A candidate is stored as one number, minute × staff count + rank: sorting these numbers
  // natively gives the output order within a date, and minute and rank decode back out of it.
  const staffCount = schedules.length;
  const keys = new Float64Array(maxGridPointsPerDay(schedules, rules.step));

  const slots: EngineSlot[] = [];
  let total = 0;
  for (let epochDay = firstDay; epochDay <= lastDay; epochDay++) {
    const weekday = isoWeekday(epochDay);
    // Only days someone works need the zone lookup (which calls Temporal the first time).
    if (!schedules.some((s) => s.hoursByWeekday[weekday]!.length > 0)) continue;
    const day = zoneDay(input.timezone, epochDay);
    const count = collectCandidates(day, weekday, schedules, rules, keys);
    if (count === 0) continue;

    const sorted = keys.subarray(0, count).sort();
    const date = formatIsoDate(epochDay);
    let previousKey = -1;
    for (const key of sorted) {
      // Overlapping working intervals of one weekday can produce the same slot twice.
      if (key === previousKey) continue;
      previousKey = key;
      total++;
      if (slots.length >= input.limit) continue;
      const minute = Math.floor(key / staffCount);
      const rank = key - minute * staffCount;
      const start = localStart(day, minute)!;
      const end = start + rules.shapes[rank]!.durationMs;
      slots.push({
        date,
        startTime: formatHhMm(minute),
        endTime: wallClock(day, end),
        serviceId: service.id,
        staffId: schedules[rank]!.id,
        startAt: start,
        endAt: end,
      });
    }
  }
  return { slots, total, truncated: total > input.limit };
}

/** Writes the keys of one date's bookable candidates into `keys`; returns how many. */
function collectCandidates(day: ZoneDay, weekday: number, schedules: readonly StaffSchedule[], rules: Rules, keys: Float64Array): number {
  let count = 0;
  for (let rank = 0; rank < schedules.length; rank++) {
    const schedule = schedules[rank]!;
    const shape = rules.shapes[rank]!;
    for (const hours of schedule.hoursByWeekday[weekday]!) {
      const open = localBoundary(day, hours.startMinute);
      const close = localBoundary(day, hours.endMinute);
      for (let minute = hours.startMinute; minute < hours.endMinute; minute += rules.step) {
        const start = localStart(day, minute);
        if (start === null) continue;
        // End is elapsed time, not wall-clock arithmetic: across a DST change the local end shifts.
        const end = start + shape.durationMs;
        if (start < open || end > close) continue;
        if (start < rules.earliestStart || start > rules.latestStart) continue;
        // Buffers may spill outside working hours but never onto other commitments.
        if (blocked(schedule, shape.blocks, start)) continue;
        // a unit of every needed resource for the appointment itself, processing included
        if (rules.resources.length > 0 && !resourcesFree(rules.resources, start, end)) continue;
        keys[count++] = minute * schedules.length + rank;
      }
    }
  }
  return count;
}

/** The service's shape, or a staff member's variant of it (same buffers). */
function shapeOf(service: EngineService, override: StaffServiceOverride | undefined): Shape {
  const durationMinutes = override ? override.durationMinutes : service.durationMinutes;
  const segments = override ? override.segments : (service.segments ?? null);
  return {
    durationMs: durationMinutes * MINUTE_MS,
    blocks: staffBlocks({
      durationMinutes,
      segments,
      bufferBeforeMinutes: service.bufferBeforeMinutes,
      bufferAfterMinutes: service.bufferAfterMinutes,
    }),
  };
}

/** What one service asks of a candidate time, prepared once per search (a visit prepares one per part). */
export interface PartRules {
  durationMs: number;
  blocks: Array<[number, number]>;
  resources: ResourceUnits;
}

export function partRules(service: EngineInput['service'], resources: EngineInput['resources']): PartRules {
  return {
    durationMs: service.durationMinutes * MINUTE_MS,
    blocks: staffBlocks({ ...service, segments: service.segments ?? null }),
    resources: buildResourceUnits(resources ?? []),
  };
}

/**
 * The engine's candidate check at any instant, not only on the grid, in two halves: a visit's later
 * parts start wherever the part before them ends, so they ask these instead of the grid walk
 * (visit.ts); the checks are collectCandidates' own. This half: the service fits in one of the
 * staff member's working intervals of that local day (buffers may spill outside them) and meets
 * none of their commitments.
 */
export function staffFits(schedule: StaffSchedule, part: PartRules, day: ZoneDay, weekday: number, start: number): boolean {
  const end = start + part.durationMs;
  let inHours = false;
  for (const hours of schedule.hoursByWeekday[weekday]!) {
    if (start >= localBoundary(day, hours.startMinute) && end <= localBoundary(day, hours.endMinute)) {
      inHours = true;
      break;
    }
  }
  return inHours && !blocked(schedule, part.blocks, start);
}

/** The other half, the same for every staff member: a unit of each needed resource free for the appointment. */
export function partResourcesFree(part: PartRules, start: number): boolean {
  return part.resources.length === 0 || resourcesFree(part.resources, start, start + part.durationMs);
}

/** Whether a part of the service starting at `start` that takes the staff member's time meets a commitment. */
function blocked(schedule: StaffSchedule, blocks: ReadonlyArray<[number, number]>, start: number): boolean {
  for (const [from, to] of blocks) if (isOccupied(schedule.occupancy, start + from, start + to)) return true;
  return false;
}

function maxGridPointsPerDay(schedules: readonly StaffSchedule[], step: number): number {
  let max = 0;
  for (let weekday = 1; weekday <= 7; weekday++) {
    let points = 0;
    for (const s of schedules) {
      for (const h of s.hoursByWeekday[weekday]!) points += Math.ceil((h.endMinute - h.startMinute) / step);
    }
    max = Math.max(max, points);
  }
  return max;
}
