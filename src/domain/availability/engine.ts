/**
 * The slot engine: which (date, start time, staff member) combinations can be booked for a
 * service. Pure and synchronous; all wall-clock handling is delegated to zone.ts.
 */
import { formatHhMm, formatIsoDate, isoWeekday, parseIsoDate, DAY_MS, MINUTE_MS } from './calendar.ts';
import { isOccupied } from './occupancy.ts';
import { prepareSchedules, type StaffSchedule } from './staff-schedule.ts';
import { localBoundary, localStart, wallClock, zoneDay, type ZoneDay } from './zone.ts';
import type { EngineInput, EngineResult, EngineSlot } from './types.ts';

interface Candidate {
  /** local minute × staff count + staff rank: the output order within one date as one number */
  key: number;
  minute: number;
  rank: number;
  start: number;
  end: number;
}

interface Limits {
  durationMs: number;
  bufferBeforeMs: number;
  bufferAfterMs: number;
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
  const limits: Limits = {
    durationMs: service.durationMinutes * MINUTE_MS,
    bufferBeforeMs: service.bufferBeforeMinutes * MINUTE_MS,
    bufferAfterMs: service.bufferAfterMinutes * MINUTE_MS,
    earliestStart: input.now + input.minNoticeMinutes * MINUTE_MS,
    latestStart: input.now + input.horizonDays * DAY_MS,
  };

  const slots: EngineSlot[] = [];
  let total = 0;
  for (let epochDay = firstDay; epochDay <= lastDay; epochDay++) {
    const weekday = isoWeekday(epochDay);
    // Only days someone works need the zone lookup (which may call Temporal the first time).
    if (!schedules.some((s) => s.hoursByWeekday[weekday]!.length > 0)) continue;
    const day = zoneDay(input.timezone, epochDay);
    const candidates = dayCandidates(day, weekday, schedules, input.slotIntervalMinutes, limits);
    if (candidates.length === 0) continue;

    candidates.sort((a, b) => a.key - b.key);
    const date = formatIsoDate(epochDay);
    let previousKey = -1;
    for (const c of candidates) {
      // Overlapping working intervals of one weekday can produce the same slot twice.
      if (c.key === previousKey) continue;
      previousKey = c.key;
      total++;
      if (slots.length < input.limit) {
        slots.push({
          date,
          startTime: formatHhMm(c.minute),
          endTime: wallClock(day, c.end),
          serviceId: service.id,
          staffId: schedules[c.rank]!.id,
          startAt: c.start,
          endAt: c.end,
        });
      }
    }
  }
  return { slots, total, truncated: total > input.limit };
}

function dayCandidates(
  day: ZoneDay,
  weekday: number,
  schedules: readonly StaffSchedule[],
  step: number,
  limits: Limits,
): Candidate[] {
  const candidates: Candidate[] = [];
  for (let rank = 0; rank < schedules.length; rank++) {
    const schedule = schedules[rank]!;
    for (const hours of schedule.hoursByWeekday[weekday]!) {
      const open = localBoundary(day, hours.startMinute);
      const close = localBoundary(day, hours.endMinute);
      for (let minute = hours.startMinute; minute < hours.endMinute; minute += step) {
        const start = localStart(day, minute);
        if (start === null) continue;
        // End is elapsed time, not wall-clock arithmetic: across a DST change the local end shifts.
        const end = start + limits.durationMs;
        if (start < open || end > close) continue;
        if (start < limits.earliestStart || start > limits.latestStart) continue;
        // Buffers may spill outside working hours but never onto other commitments.
        if (isOccupied(schedule.occupancy, start - limits.bufferBeforeMs, end + limits.bufferAfterMs)) continue;
        candidates.push({ key: minute * schedules.length + rank, minute, rank, start, end });
      }
    }
  }
  return candidates;
}
