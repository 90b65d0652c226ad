/**
 * Per-call preparation of each staff member: working hours grouped by weekday and all
 * unavailable time merged into one searchable list, done once instead of per candidate.
 */
import { buildOccupancy, type Occupancy } from './occupancy.ts';
import { MINUTES_PER_DAY } from '../time/calendar.ts';
import type { EngineStaff, StaffServiceOverride, WorkingInterval } from './types.ts';

export interface StaffSchedule {
  readonly id: string;
  /** index = ISO weekday 1..7 (index 0 unused) */
  readonly hoursByWeekday: readonly (readonly WorkingInterval[])[];
  readonly occupancy: Occupancy;
  /** the staff member's own duration and segments of the service (a stylist variant), if any */
  readonly serviceOverride: StaffServiceOverride | undefined;
}

/** Schedules in output order: by staff id, compared as plain strings (code units, not locale). */
export function prepareSchedules(staff: readonly EngineStaff[]): StaffSchedule[] {
  return [...staff]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((member) => ({
      id: member.id,
      hoursByWeekday: groupByWeekday(member.workingHours),
      occupancy: buildOccupancy([member.timeOff, member.busy]),
      serviceOverride: member.serviceOverride,
    }));
}

function groupByWeekday(hours: readonly WorkingInterval[]): WorkingInterval[][] {
  const byWeekday: WorkingInterval[][] = [[], [], [], [], [], [], [], []];
  for (const h of hours) {
    // Malformed rows would otherwise loop past midnight or yield nothing sensible; they offer no time.
    if (!Number.isInteger(h.weekday) || h.weekday < 1 || h.weekday > 7) continue;
    if (!Number.isInteger(h.startMinute) || !Number.isInteger(h.endMinute)) continue;
    if (h.startMinute < 0 || h.endMinute > MINUTES_PER_DAY || h.startMinute >= h.endMinute) continue;
    byWeekday[h.weekday]!.push(h);
  }
  return byWeekday;
}
