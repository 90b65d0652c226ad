import { invalidField } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { instantToLocal, localToInstant, type LocalDateTime } from '../../domain/time/wall-clock.ts';
import type { Db } from '../../store/db.ts';
import { findLocationById } from '../../store/locations.ts';
import { insertTimeOff } from '../../store/time-off.ts';
import { requireStaff } from './staff.ts';

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
  });
}
