/**
 * Explain (salon-scheduling.md, "Explain"): why one local time is or is not offered for each staff
 * member, from the same inputs and the same checks as the slot engine (engine.ts), so that
 * `bookable` is true exactly when a search of that day offers the time for that staff member (a
 * property test holds the two together). Reasons outside the engine's inputs (the location takes
 * no bookings, the staff member does not perform the service, the monthly quota) are the use case's.
 */
import { isoWeekday, MINUTE_MS, parseIsoDate, DAY_MS } from '../time/calendar.ts';
import { parseHhMm } from '../time/hh-mm.ts';
import { localBoundary, localStart, zoneDay } from '../time/zone-day.ts';
import { buildOccupancy, buildResourceUnits, isOccupied, resourcesTaken } from './occupancy.ts';
import { prepareSchedules } from './staff-schedule.ts';
import { staffBlocks } from '../scheduling/segments.ts';
import type { EngineResource, EngineService, Interval, StaffServiceOverride, WorkingInterval } from './types.ts';

/** The engine's reasons, in the order they are listed. */
export const ENGINE_REASONS = [
  'in_the_past',
  'min_notice',
  'beyond_horizon',
  'nonexistent_local_time',
  'not_on_interval',
  'outside_working_hours',
  'time_off',
  'booked',
  'held',
  'resource_unavailable',
] as const;
export type EngineReason = (typeof ENGINE_REASONS)[number];

/** A staff member as explain needs it: what the engine's `busy` merges, kept apart by kind. */
export interface ExplainStaff {
  id: string;
  workingHours: readonly WorkingInterval[];
  timeOff: readonly Interval[];
  /** bookings (widened by their buffers) and the staff member's group sessions */
  booked: readonly Interval[];
  /** live holds */
  held: readonly Interval[];
  /** the staff member's own duration and segments of the service, as the engine gets them */
  serviceOverride?: StaffServiceOverride | undefined;
}

export interface ExplainInput {
  timezone: string;
  slotIntervalMinutes: number;
  minNoticeMinutes: number;
  horizonDays: number;
  /** epoch ms */
  now: number;
  /** local YYYY-MM-DD and HH:MM, already pattern-checked */
  date: string;
  startTime: string;
  service: EngineService;
  staff: readonly ExplainStaff[];
  /** the resources the service needs, as the engine gets them */
  resources?: readonly EngineResource[] | undefined;
}

export interface StaffExplanation {
  staffId: string;
  bookable: boolean;
  reasons: EngineReason[];
  /** with `resource_unavailable`: the ids of the resources with no free unit */
  resourceIds?: string[];
}

export function explainTime(input: ExplainInput): StaffExplanation[] {
  const epochDay = parseIsoDate(input.date);
  const weekday = isoWeekday(epochDay);
  const minute = parseHhMm(input.startTime);
  const day = zoneDay(input.timezone, epochDay);
  const start = minute < 1440 ? localStart(day, minute) : null;
  const resources = input.resources ?? [];
  const units = buildResourceUnits(resources);
  return input.staff.map((staff) => {
    // the staff member's own variant of the service, as the engine applies it
    const service = staff.serviceOverride ? { ...input.service, ...staff.serviceOverride } : input.service;
    const durationMs = service.durationMinutes * MINUTE_MS;
    const taken = start === null ? [] : resourcesTaken(units, start, start + durationMs).map((i) => resources[i]!.id);
    const reasons = new Set<EngineReason>();
    if (start === null) {
      reasons.add('nonexistent_local_time');
    } else {
      if (start < input.now) reasons.add('in_the_past');
      else if (start < input.now + input.minNoticeMinutes * MINUTE_MS) reasons.add('min_notice');
      if (start > input.now + input.horizonDays * DAY_MS) reasons.add('beyond_horizon');
    }
    // the engine's own reading of the hours (malformed rows offer nothing)
    const hours = prepareSchedules([{ id: staff.id, workingHours: [...staff.workingHours], timeOff: [], busy: [] }])[0]!.hoursByWeekday[
      weekday
    ]!;
    const fitting = start !== null && hours.some((h) => onGrid(h, minute, input.slotIntervalMinutes) && fits(day, h, start, durationMs));
    if (!fitting) {
      const within = hours.filter((h) => minute >= h.startMinute && minute < h.endMinute);
      if (within.length === 0) reasons.add('outside_working_hours');
      else if (!within.some((h) => onGrid(h, minute, input.slotIntervalMinutes))) reasons.add('not_on_interval');
      // on a grid point, but the service (or the day: a gap at its opening) does not fit the hours
      else if (start !== null) reasons.add('outside_working_hours');
    }
    if (start !== null) {
      // Each list merged once per staff member, not once per block: a service with processing
      // has several blocks, and the merge (a sort) costs more than all the lookups together.
      const timeOff = buildOccupancy([staff.timeOff]);
      const booked = buildOccupancy([staff.booked]);
      const held = buildOccupancy([staff.held]);
      // the parts that take the staff member's time, as the engine checks them
      for (const [from, to] of staffBlocks({ ...service, segments: service.segments ?? null })) {
        if (isOccupied(timeOff, start + from, start + to)) reasons.add('time_off');
        if (isOccupied(booked, start + from, start + to)) reasons.add('booked');
        if (isOccupied(held, start + from, start + to)) reasons.add('held');
      }
    }
    if (taken.length > 0) reasons.add('resource_unavailable');
    const listed = ENGINE_REASONS.filter((r) => reasons.has(r));
    return { staffId: staff.id, bookable: listed.length === 0, reasons: listed, ...(taken.length > 0 ? { resourceIds: taken } : {}) };
  });
}

/** The engine's grid: each working interval's own, from its opening minute. */
function onGrid(h: WorkingInterval, minute: number, step: number): boolean {
  return minute >= h.startMinute && minute < h.endMinute && (minute - h.startMinute) % step === 0;
}

/** As the engine: the start at or after the opening instant, the end (elapsed time) at or before the closing one. */
function fits(day: ReturnType<typeof zoneDay>, h: WorkingInterval, start: number, durationMs: number): boolean {
  return start >= localBoundary(day, h.startMinute) && start + durationMs <= localBoundary(day, h.endMinute);
}
