/**
 * What a receptionist should hear before booking an odd time by hand (issue 27, docs/dashboard.md
 * "Book anyway?"). A manual booking may lie anywhere its staff member is free, off the slot grid,
 * in the past or outside hours: these are warnings, never refusals. The hours are read as the
 * engine reads them (prepareSchedules drops malformed rows), but without the grid: a manual time
 * need not be one the booking page would offer.
 */
import { buildOccupancy, isOccupied } from '../availability/occupancy.ts';
import { prepareSchedules } from '../availability/staff-schedule.ts';
import type { Interval, WorkingInterval } from '../availability/types.ts';
import { staffBlocks, type ServiceShape } from '../scheduling/segments.ts';
import { isoWeekday, parseIsoDate } from '../time/calendar.ts';
import { parseHhMm } from '../time/hh-mm.ts';
import { localBoundary, localStart, zoneDay } from '../time/zone-day.ts';

/** In the order they are listed; the codes are explain's where one exists (salon-scheduling.md). */
export const MANUAL_WARNINGS = ['in_the_past', 'closed_day', 'outside_working_hours', 'time_off'] as const;
export type ManualWarning = (typeof MANUAL_WARNINGS)[number];

export const MANUAL_WARNING_MESSAGES: Record<ManualWarning, string> = {
  in_the_past: 'This time has already passed.',
  closed_day: 'The staff member does not work on this day.',
  outside_working_hours: 'The booking falls outside the staff member’s working hours.',
  time_off: 'The staff member is off during this time.',
};

export interface ManualWarningInput {
  timezone: string;
  date: string;
  startTime: string;
  service: ServiceShape;
  staff: { id: string; workingHours: readonly WorkingInterval[]; timeOff: readonly Interval[] };
  now: number;
}

export function manualBookingWarnings(input: ManualWarningInput): ManualWarning[] {
  const epochDay = parseIsoDate(input.date);
  const minute = parseHhMm(input.startTime);
  const day = zoneDay(input.timezone, epochDay);
  const start = localStart(day, minute);
  // a time the day does not have (a DST gap) is refused by the create itself
  if (start === null) return [];
  const found = new Set<ManualWarning>();
  if (start < input.now) found.add('in_the_past');
  const hours = prepareSchedules([{ id: input.staff.id, workingHours: [...input.staff.workingHours], timeOff: [], busy: [] }])[0]!
    .hoursByWeekday[isoWeekday(epochDay)]!;
  // the work itself, without the buffers: a cut ending at closing time with its clean-up after is not odd
  const blocks = staffBlocks({ ...input.service, bufferBeforeMinutes: 0, bufferAfterMinutes: 0 });
  if (hours.length === 0) {
    found.add('closed_day');
  } else {
    // every part that takes the staff member's time lies inside one of the day's working intervals
    const inside = blocks.every(([from, to]) =>
      hours.some((h) => start + from >= localBoundary(day, h.startMinute) && start + to <= localBoundary(day, h.endMinute)),
    );
    if (!inside) found.add('outside_working_hours');
  }
  if (input.staff.timeOff.length > 0) {
    const off = buildOccupancy([input.staff.timeOff]);
    if (blocks.some(([from, to]) => isOccupied(off, start + from, start + to))) found.add('time_off');
  }
  return MANUAL_WARNINGS.filter((w) => found.has(w));
}
