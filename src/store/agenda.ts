import type { WorkingInterval } from '../domain/availability/types.ts';
import type { BookingRecord } from '../domain/bookings/record.ts';
import type { Queryable } from './db.ts';
import { BOOKING_COLUMNS, toRecord } from './bookings.ts';

export interface AgendaStaffRow {
  id: string;
  name: string;
  workingHours: WorkingInterval[];
  timeOff: Array<{ startAt: Date; endAt: Date }>;
}

/** A location's bookings in these statuses whose appointment overlaps [from, to), earliest first. */
export async function listBookingsOverlapping(
  q: Queryable,
  locationId: string,
  statuses: readonly string[],
  from: Date,
  to: Date,
): Promise<BookingRecord[]> {
  const r = await q.query<Parameters<typeof toRecord>[0]>(
    `SELECT ${BOOKING_COLUMNS} FROM bookings
      WHERE location_id = $1 AND status = ANY($2::text[]) AND start_at < $4 AND end_at > $3
      ORDER BY start_at, id`,
    [locationId, [...statuses], from, to],
  );
  return r.rows.map(toRecord);
}

/**
 * The active staff of a location, and those named in `alsoIds` whatever their state (a deactivated
 * staff member's bookings still happen), each with working hours and the time off overlapping
 * [from, to). Ordered by name, then id.
 */
export async function listAgendaStaff(
  q: Queryable,
  locationId: string,
  alsoIds: readonly string[],
  from: Date,
  to: Date,
): Promise<AgendaStaffRow[]> {
  const r = await q.query<{ id: string; name: string; hours: WorkingInterval[] | null; time_off: Array<{ s: string; e: string }> | null }>(
    `SELECT s.id, s.name,
            (SELECT json_agg(json_build_object('weekday', w.weekday, 'startMinute', w.start_minute, 'endMinute', w.end_minute)
                             ORDER BY w.weekday, w.start_minute)
               FROM working_hours w WHERE w.staff_id = s.id) AS hours,
            (SELECT json_agg(json_build_object('s', t.start_at, 'e', t.end_at) ORDER BY t.start_at)
               FROM time_off t WHERE t.staff_id = s.id AND t.start_at < $4 AND t.end_at > $3) AS time_off
       FROM staff s
      WHERE s.location_id = $1 AND (s.active OR s.id = ANY($2::text[]))
      ORDER BY s.name, s.id`,
    [locationId, [...alsoIds], from, to],
  );
  return r.rows.map((row) => ({
    id: row.id,
    name: row.name,
    workingHours: row.hours ?? [],
    timeOff: (row.time_off ?? []).map((t) => ({ startAt: new Date(t.s), endAt: new Date(t.e) })),
  }));
}
