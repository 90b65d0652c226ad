import { AppError, invalidField } from '../../domain/errors.ts';
import { formatIsoDate, parseIsoDate } from '../../domain/time/calendar.ts';
import { newId } from '../../domain/ids.ts';
import { instantToLocal, localToInstant, type LocalDateTime } from '../../domain/time/wall-clock.ts';
import type { Db } from '../../store/db.ts';
import { findLocationById } from '../../store/locations.ts';
import { deleteTimeOff, insertTimeOff, listTimeOff as listTimeOffRows, type TimeOffRow } from '../../store/time-off.ts';
import { findStaffById } from '../../store/staff.ts';
import { requireStaff } from './staff.ts';
import { planTimeOffFreed } from '../waitlist/freed.ts';

export interface TimeOffInput {
  from: LocalDateTime;
  to: LocalDateTime;
}

export interface TimeOffView {
  id: string;
  staffId: string;
  /** local wall clock of the stored instants, so a time shifted out of a DST gap is visible */
  from: LocalDateTime;
  to: LocalDateTime;
  timezone: string;
  startAtUtc: string;
  endAtUtc: string;
  createdAt: string;
}

export async function createTimeOff(db: Db, staffId: string, input: TimeOffInput): Promise<TimeOffView> {
  return db.transaction(async (tx) => {
    const staff = await requireStaff(tx, staffId);
    const { timezone } = (await findLocationById(tx, staff.locationId))!;
    const startAt = localToInstant(input.from, timezone);
    if (!startAt) throw invalidField('body.from.date', 'is not a calendar date');
    const endAt = localToInstant(input.to, timezone);
    if (!endAt) throw invalidField('body.to.date', 'is not a calendar date');
    if (startAt >= endAt) throw invalidField('body.to', 'must be after from');
    const row = await insertTimeOff(tx, { id: newId('off'), staffId: staff.id, startAt, endAt });
    return timeOffView(row, timezone);
  });
}

function timeOffView(row: TimeOffRow, timezone: string): TimeOffView {
  return {
    id: row.id,
    staffId: row.staff_id,
    from: instantToLocal(row.start_at, timezone),
    to: instantToLocal(row.end_at, timezone),
    timezone,
    startAtUtc: row.start_at.toISOString(),
    endAtUtc: row.end_at.toISOString(),
    createdAt: row.created_at.toISOString(),
  };
}

/** The start of a local day; undefined for a date the calendar does not have. */
function dayStart(date: string, timezone: string): Date | undefined {
  return localToInstant({ date, time: '00:00' }, timezone);
}

function nextDate(date: string): string | undefined {
  try {
    return formatIsoDate(parseIsoDate(date) + 1);
  } catch {
    return undefined;
  }
}

/**
 * Time off that overlaps the local days `from` to `to` (both included, in the location's zone),
 * by start; either bound may be left out.
 */
export async function listTimeOff(db: Db, staffId: string, range: { from?: string; to?: string }): Promise<TimeOffView[]> {
  return db.transaction(async (tx) => {
    const staff = await requireStaff(tx, staffId);
    const { timezone } = (await findLocationById(tx, staff.locationId))!;
    const start = range.from === undefined ? undefined : dayStart(range.from, timezone);
    if (range.from !== undefined && !start) throw invalidField('query.from', 'is not a calendar date');
    const next = range.to === undefined ? undefined : nextDate(range.to);
    const end = next === undefined ? undefined : dayStart(next, timezone);
    if (range.to !== undefined && !end) throw invalidField('query.to', 'is not a calendar date');
    if (start && end && start >= end) throw invalidField('query.to', 'must not be before from');
    return (await listTimeOffRows(tx, staff.id, start, end)).map((row) => timeOffView(row, timezone));
  });
}

/** Removes time off; the answer is the time off as it was. Availability reads the table, so it frees the time at once. */
export async function removeTimeOff(db: Db, timeOffId: string): Promise<TimeOffView> {
  return db.transaction(async (tx) => {
    const row = await deleteTimeOff(tx, timeOffId);
    if (!row) throw new AppError('request.not_found', `No time off with id "${timeOffId}".`);
    const staff = (await findStaffById(tx, row.staff_id))!;
    const { timezone } = (await findLocationById(tx, staff.locationId))!;
    const view = timeOffView(row, timezone);
    await planTimeOffFreed(tx, {
      timeOffId: row.id,
      businessId: staff.businessId,
      locationId: staff.locationId,
      staffId: staff.id,
      fromDate: view.from.date,
      toDate: view.to.date,
      startAt: row.start_at,
      endAt: row.end_at,
    });
    return view;
  });
}
