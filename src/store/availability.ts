import type { EngineResource, EngineStaff, Interval, WorkingInterval } from '../domain/availability/types.ts';
import { SESSION_OFFERED } from './group-seats.ts';
import type { Queryable } from './db.ts';

/**
 * Everything the slot engine needs for one service at one location in one round trip: the staff
 * who perform it (with their names, for a booking), each with their working hours, time off and held ranges (occupying bookings,
 * their own group sessions and guests' live holds) in [from, to).
 *
 * Per staff member the intervals come back as one string of epoch milliseconds ("start end start
 * end ..."), not as a row per booking with two timestamps: a month with 2,000 bookings is then 10
 * rows instead of 2,000, and parsing integers is far cheaper than parsing timestamps (on PGlite
 * the per-row cost dominated the whole request). The correlated subqueries also let the
 * (staff_id, during) GiST index of occupancy's exclusion constraint use both columns;
 * `staff_id = ANY(...)` could only use the range, which scans every tenant's rows in the window.
 * Occupancy rows (migration 023) are the parts that take the staff member's time: a booking's
 * processing time is not among them.
 */
export async function loadEngineStaff(
  q: Queryable,
  locationId: string,
  serviceId: string,
  staffId: string | undefined,
  from: Date,
  to: Date,
): Promise<Array<EngineStaff & { name: string; position: number | null; heldForMs: number | null; booked: Interval[]; held: Interval[] }>> {
  // date_part (float8) is markedly cheaper than extract (numeric) over thousands of rows.
  const r = await q.query<{
    id: string;
    name: string;
    position: number | null;
    hours: string | null;
    time_off: string | null;
    busy: string | null;
    sessions: string | null;
    holds: string | null;
    held_for: number | null;
  }>(
    `SELECT s.id, s.name, s.position,
            (SELECT string_agg(w.weekday || ' ' || w.start_minute || ' ' || w.end_minute, ' ')
               FROM working_hours w WHERE w.staff_id = s.id) AS hours,
            (SELECT string_agg(date_part('epoch', t.start_at) * 1000 || ' ' || date_part('epoch', t.end_at) * 1000, ' ')
               FROM time_off t
              WHERE t.staff_id = s.id AND t.start_at < $5 AND t.end_at > $4) AS time_off,
            (SELECT string_agg(date_part('epoch', lower(o.during)) * 1000 || ' ' ||
                               date_part('epoch', upper(o.during)) * 1000, ' ')
               FROM occupancy o
              WHERE o.staff_id = s.id AND o.booking_id IS NOT NULL
                AND o.during && tstzrange($4, $5, '[)')) AS busy,
            (SELECT string_agg(date_part('epoch', g.start_at) * 1000 || ' ' || date_part('epoch', g.end_at) * 1000, ' ')
               FROM group_sessions g
              WHERE g.staff_id = s.id AND g.start_at < $5 AND g.end_at > $4) AS sessions,
            h.holds, h.held_for
       FROM staff s
       LEFT JOIN LATERAL (
         SELECT string_agg(date_part('epoch', lower(o.during)) * 1000 || ' ' ||
                           date_part('epoch', upper(o.during)) * 1000, ' ') AS holds,
                min(date_part('epoch', h.expires_at - now()) * 1000) AS held_for
           FROM occupancy o JOIN holds h ON h.id = o.hold_id
          WHERE o.staff_id = s.id AND h.expires_at > now()
            AND o.during && tstzrange($4, $5, '[)')) h ON true
       JOIN staff_services ss ON ss.staff_id = s.id AND ss.service_id = $2
      WHERE s.location_id = $1 AND s.active AND ($3::text IS NULL OR s.id = $3)
      ORDER BY s.id`,
    [locationId, serviceId, staffId ?? null, from, to],
  );
  return r.rows.map((row) => {
    // A group session of theirs takes the staff member's time like a booking does.
    // So does a guest's live hold (migration 017), until it ends: heldForMs is how long the first
    // one still lives by the database's clock, the one that decides (decisions.md "Holds").
    const booked = [...parseIntervals(row.busy), ...parseIntervals(row.sessions)];
    const held = parseIntervals(row.holds);
    return {
      id: row.id,
      name: row.name,
      position: row.position,
      workingHours: parseHours(row.hours),
      timeOff: parseIntervals(row.time_off),
      busy: [...booked, ...held],
      // kept apart for explain, which names which of them is in the way
      booked,
      held,
      heldForMs: row.held_for === null ? null : Number(row.held_for),
    };
  });
}

function numbers(text: string | null): number[] {
  return text === null || text === '' ? [] : text.split(' ').map(Number);
}

function parseHours(text: string | null): WorkingInterval[] {
  const n = numbers(text);
  const out: WorkingInterval[] = [];
  for (let i = 0; i + 2 < n.length; i += 3) out.push({ weekday: n[i]!, startMinute: n[i + 1]!, endMinute: n[i + 2]! });
  return out;
}

function parseIntervals(text: string | null): Interval[] {
  const n = numbers(text);
  const out: Interval[] = [];
  // floor/ceil keep sub-millisecond bounds on the safe side: an unavailable range never shrinks.
  for (let i = 0; i + 1 < n.length; i += 2) out.push({ start: Math.floor(n[i]!), end: Math.ceil(n[i + 1]!) });
  return out;
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
export async function loadOpenSessions(
  q: Queryable,
  serviceId: string,
  staffId: string | undefined,
  from: Date,
  to: Date,
): Promise<SessionRow[]> {
  const r = await q.query<SessionRow>(
    `SELECT g.id, g.staff_id, s.name AS staff_name, g.start_at, g.end_at, g.capacity_max, g.seats_taken, g.price_minor
       FROM group_sessions g JOIN staff s ON s.id = g.staff_id
      WHERE g.service_id = $1 AND ($2::text IS NULL OR g.staff_id = $2)
        AND g.start_at >= $3 AND g.start_at < $4 AND g.seats_taken < g.capacity_max
        AND ${SESSION_OFFERED}
      ORDER BY g.start_at, g.staff_id, g.id`,
    [serviceId, staffId ?? null, from, to],
  );
  return r.rows;
}

/**
 * Each staff member's booked minutes on a local day (bookings that take time, not group seats):
 * what `balanced` assignment compares. A staff member without any is missing from the map.
 */
export async function bookedMinutesOn(q: Queryable, staffIds: readonly string[], date: string): Promise<Map<string, number>> {
  if (staffIds.length === 0) return new Map();
  const r = await q.query<{ staff_id: string; minutes: number }>(
    `SELECT occupied_staff_id AS staff_id, sum(date_part('epoch', end_at - start_at) / 60)::int AS minutes
       FROM bookings
      WHERE occupied_staff_id = ANY($1::text[]) AND slot_date = $2
        AND status IN ('requested', 'confirmed', 'rescheduleProposed') AND session_id IS NULL
      GROUP BY occupied_staff_id`,
    [staffIds, date],
  );
  return new Map(r.rows.map((row) => [row.staff_id, Number(row.minutes)]));
}

/**
 * The bookings and live holds of a staff member that overlap [from, to) (a time with the service's
 * buffers): what the operator's explain names as in the way of `booked` and `held`.
 */
export async function findInTheWay(
  q: Queryable,
  staffId: string,
  from: Date,
  to: Date,
): Promise<{ bookingIds: string[]; holdIds: string[] }> {
  const r = await q.query<{ kind: 'booking' | 'hold'; id: string }>(
    `SELECT DISTINCT 'booking' AS kind, booking_id AS id FROM occupancy
      WHERE staff_id = $1 AND booking_id IS NOT NULL AND during && tstzrange($2, $3, '[)')
     UNION
     SELECT 'hold' AS kind, h.id FROM occupancy o JOIN holds h ON h.id = o.hold_id
      WHERE o.staff_id = $1 AND h.expires_at > now() AND o.during && tstzrange($2, $3, '[)')
     ORDER BY kind, id`,
    [staffId, from, to],
  );
  return {
    bookingIds: r.rows.filter((row) => row.kind === 'booking').map((row) => row.id),
    holdIds: r.rows.filter((row) => row.kind === 'hold').map((row) => row.id),
  };
}

/**
 * The active resources a service needs, each with what its units are taken for in [from, to)
 * (bookings and live holds, migration 026), and how long the first live hold among them still
 * lives (null without one), for the same cache bound as the staff's holds.
 */
export async function loadEngineResources(
  q: Queryable,
  serviceId: string,
  from: Date,
  to: Date,
): Promise<{ resources: Array<EngineResource & { name: string }>; heldForMs: number | null }> {
  const r = await q.query<{ id: string; name: string; quantity: number; taken: string | null; held_for: number | null }>(
    `SELECT r.id, r.name, r.quantity, t.taken, t.held_for
       FROM service_resources sr
       JOIN resources r ON r.id = sr.resource_id AND r.active
       LEFT JOIN LATERAL (
         SELECT string_agg(o.unit || ' ' || date_part('epoch', lower(o.during)) * 1000 || ' ' ||
                           date_part('epoch', upper(o.during)) * 1000, ' ') AS taken,
                min(date_part('epoch', h.expires_at - now()) * 1000) AS held_for
           FROM occupancy o LEFT JOIN holds h ON h.id = o.hold_id
          WHERE o.resource_id = r.id AND o.during && tstzrange($2, $3, '[)')
            AND (o.hold_id IS NULL OR h.expires_at > now())) t ON true
      WHERE sr.service_id = $1
      ORDER BY r.id`,
    [serviceId, from, to],
  );
  let heldForMs: number | null = null;
  const resources = r.rows.map((row) => {
    if (row.held_for !== null && (heldForMs === null || Number(row.held_for) < heldForMs)) heldForMs = Number(row.held_for);
    const units: Interval[][] = Array.from({ length: row.quantity }, () => []);
    const n = numbers(row.taken);
    for (let i = 0; i + 2 < n.length; i += 3) units[n[i]! - 1]?.push({ start: Math.floor(n[i + 1]!), end: Math.ceil(n[i + 2]!) });
    return { id: row.id, name: row.name, quantity: row.quantity, units };
  });
  return { resources, heldForMs };
}
