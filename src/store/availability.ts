import type { EngineStaff, WorkingInterval } from '../domain/availability/types.ts';
import type { Queryable } from './db.ts';

/**
 * Everything the slot engine needs for one service at one location, in three round trips: the
 * staff who perform it (with their hours), their time off and their held ranges in the window.
 */
export async function loadEngineStaff(
  q: Queryable,
  locationId: string,
  serviceId: string,
  staffId: string | undefined,
  from: Date,
  to: Date,
): Promise<EngineStaff[]> {
  const hours = await q.query<{ staff_id: string; weekday: number; start_minute: number; end_minute: number | null }>(
    `SELECT s.id AS staff_id, w.weekday, w.start_minute, w.end_minute
       FROM staff s
       JOIN staff_services ss ON ss.staff_id = s.id AND ss.service_id = $2
       LEFT JOIN working_hours w ON w.staff_id = s.id
      WHERE s.location_id = $1 AND s.active AND ($3::text IS NULL OR s.id = $3)
      ORDER BY s.id`,
    [locationId, serviceId, staffId ?? null],
  );
  const byId = new Map<string, EngineStaff>();
  for (const row of hours.rows) {
    let staff = byId.get(row.staff_id);
    if (!staff) {
      staff = { id: row.staff_id, workingHours: [], timeOff: [], busy: [] };
      byId.set(row.staff_id, staff);
    }
    if (row.end_minute !== null) {
      const interval: WorkingInterval = { weekday: row.weekday, startMinute: row.start_minute, endMinute: row.end_minute };
      staff.workingHours.push(interval);
    }
  }
  if (byId.size === 0) return [];
  const ids = [...byId.keys()];

  const [timeOff, busy] = await Promise.all([
    q.query<{ staff_id: string; start_at: Date; end_at: Date }>(
      `SELECT staff_id, start_at, end_at FROM time_off
        WHERE staff_id = ANY($1::text[]) AND start_at < $3 AND end_at > $2`,
      [ids, from, to],
    ),
    q.query<{ staff_id: string; start: Date; end: Date }>(
      `SELECT occupied_staff_id AS staff_id, lower(occupied) AS start, upper(occupied) AS "end"
         FROM bookings
        WHERE occupied_staff_id = ANY($1::text[])
          AND status IN ('requested', 'confirmed', 'rescheduleProposed')
          AND session_id IS NULL
          AND occupied && tstzrange($2, $3, '[)')`,
      [ids, from, to],
    ),
  ]);
  for (const t of timeOff.rows) byId.get(t.staff_id)?.timeOff.push({ start: t.start_at.getTime(), end: t.end_at.getTime() });
  for (const b of busy.rows) byId.get(b.staff_id)?.busy.push({ start: b.start.getTime(), end: b.end.getTime() });
  return [...byId.values()];
}

export interface SessionRow {
  id: string;
  staff_id: string;
  staff_name: string;
  start_at: Date;
  end_at: Date;
  capacity_max: number;
  seats_taken: number;
  price_minor: number | null;
}

/** Scheduled sessions of a group service starting in [from, to) that still have a seat. */
export async function loadOpenSessions(q: Queryable, serviceId: string, staffId: string | undefined, from: Date, to: Date): Promise<SessionRow[]> {
  const r = await q.query<SessionRow>(
    `SELECT g.id, g.staff_id, s.name AS staff_name, g.start_at, g.end_at, g.capacity_max, g.seats_taken, g.price_minor
       FROM group_sessions g JOIN staff s ON s.id = g.staff_id
      WHERE g.service_id = $1 AND ($2::text IS NULL OR g.staff_id = $2)
        AND g.start_at >= $3 AND g.start_at < $4 AND g.seats_taken < g.capacity_max
      ORDER BY g.start_at, g.staff_id, g.id`,
    [serviceId, staffId ?? null, from, to],
  );
  return r.rows;
}
