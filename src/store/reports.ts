import type { Span, WeeklyHours } from '../domain/reports/working-minutes.ts';
import type { Queryable } from './db.ts';

/** Which bookings a report reads: one business, optionally one location, local start dates from..to. */
export interface ReportScope {
  businessId: string;
  locationId: string | null;
  from: string;
  to: string;
}

// $1 business, $2 location or null, $3 from, $4 to: every statement below starts with these.
function scopeParams(s: ReportScope): unknown[] {
  return [s.businessId, s.locationId, s.from, s.to];
}

export interface StatusSourceCount {
  status: string;
  source: string;
  count: number;
}

export interface StaffServiceFigures {
  staffId: string | null;
  staffName: string | null;
  serviceId: string;
  serviceName: string;
  /** minor units: confirmed + completed, and completed alone; a negotiable price counts 0 */
  bookedMinor: number;
  completedMinor: number;
  /** the staff member's working time of confirmed, completed and noShow bookings: no processing, no buffers */
  workMinutes: number;
}

export interface PeriodFigures {
  /** bookings of the period by status and source (at most 21 rows, however many bookings) */
  counts: StatusSourceCount[];
  /** revenue and worked minutes per (staff member, service) pair with a booking in the period */
  pairs: StaffServiceFigures[];
  /**
   * cancelled bookings of the period whose cancellation (the time of its event) came less than
   * noticeMinutes before the start, or after it
   */
  lateCancelled: number;
  /**
   * the clients with a non-declined booking in the period, and how many of them are new: their
   * first non-declined booking at the business (by start, then id) falls in the period (and at the
   * location, when one is asked). A declined request never held a time, so it makes nobody a client.
   */
  clients: { total: number; new: number };
  /**
   * completed bookings of the period, and those whose client, by the end of the visit's local day,
   * had made another booking for a later time that was neither cancelled nor declined
   */
  rebooking: { completed: number; rebooked: number };
}

/**
 * Every figure the report sums in SQL, in one statement over one read of the business's bookings
 * from two days before the period on (two days cover a booking at a location whose zone is a day
 * apart), kept narrow in memory (`s`) and read twice:
 *
 * - the period's own bookings (`g`), counted, priced and timed per (staff member, service, status,
 *   source): at most a few thousand groups however many bookings, added up here by status and
 *   source and by (staff member, service). The price is the booking's own snapshot (migration 025);
 *   start_at..end_at is the appointment without its buffers, and its processing parts are not the
 *   staff member's time (summed as intervals, then turned into seconds: whole minutes add up
 *   exactly). A cancellation's event is looked up for the period's cancelled bookings only.
 * - a window over the non-declined ones (`w`), sorted once by client (byte-wise: it only groups, and
 *   a byte-wise sort is the cheapest) and latest start first: a booking's earliest later making
 *   time (peers of one start excluded) is a running minimum over the later starts, a frame that
 *   only grows (no aggregate started again per row, no lookup per visit); it says whether a visit
 *   was rebooked. Then one row per client (`k`) with the start of its first booking in the period.
 *   A client is new when nothing non-declined came before that booking (by start, then id): a
 *   booking more than two days before the period starts before any of the period's, so one index
 *   probe per client of the period (bookings_client_idx) bounded by that start answers it; a
 *   booking of the same start outside the period comes first only when its id is below every one
 *   of that start in the period.
 */
export async function sumReportFigures(q: Queryable, s: ReportScope, noticeMinutes: number): Promise<PeriodFigures> {
  const r = await q.query<{
    staff_id: string | null;
    staff_name: string | null;
    service_id: string | null;
    service_name: string | null;
    status: string | null;
    source: string | null;
    n: number | null;
    price: string | number | null;
    work: string | number | null;
    late: number | null;
    total: number;
    fresh: number;
    completed: number;
    rebooked: number;
  }>(
    `WITH s AS MATERIALIZED (
       SELECT b.id, b.client_id, b.start_at, b.staff_id, b.service_id, b.status, b.source,
              (b.slot_date BETWEEN $3::date AND $4::date AND ($2::text IS NULL OR b.location_id = $2)) AS inside,
              CASE WHEN b.price_type IN ('fixed', 'from') THEN coalesce(b.price_minor, 0) ELSE 0 END AS price,
              CASE WHEN b.status IN ('confirmed', 'completed', 'noShow') THEN
                (b.end_at - b.start_at) - CASE WHEN isempty(b.processing) THEN interval '0'
                  WHEN b.processing = tstzmultirange(range_merge(b.processing)) THEN upper(b.processing) - lower(b.processing)
                  ELSE (SELECT sum(upper(p) - lower(p)) FROM unnest(b.processing) AS p) END
              END AS work,
              CASE WHEN b.status = 'cancelled' AND b.slot_date BETWEEN $3::date AND $4::date AND ($2::text IS NULL OR b.location_id = $2)
                THEN coalesce((SELECT max(e.occurred_at) FROM booking_events e WHERE e.booking_id = b.id AND e.to_status = 'cancelled')
                              > b.start_at - make_interval(mins => $5::int), false)
              END AS late,
              CASE WHEN b.status = 'completed' THEN (b.slot_date + 1)::timestamp AT TIME ZONE b.timezone END AS completed_day_end,
              CASE WHEN b.status NOT IN ('cancelled', 'declined') THEN b.created_at END AS made
         FROM bookings b
        WHERE b.business_id = $1 AND b.slot_date >= $3::date - 2),
     g AS (
       SELECT s.staff_id, s.service_id, s.status, s.source, count(*)::int AS n, sum(s.price) AS price,
              date_part('epoch', sum(s.work)) AS work, count(*) FILTER (WHERE s.late)::int AS late
         FROM s WHERE s.inside
        GROUP BY s.staff_id, s.service_id, s.status, s.source),
     w AS (
       SELECT s.client_id, s.start_at, s.inside, s.completed_day_end, min(s.made) OVER later AS next_made
         FROM s WHERE s.status <> 'declined'
       WINDOW later AS (PARTITION BY s.client_id COLLATE "C" ORDER BY s.start_at DESC
                        RANGE BETWEEN UNBOUNDED PRECEDING AND interval '1 microsecond' PRECEDING)),
     k AS (
       SELECT w.client_id, min(w.start_at) FILTER (WHERE w.inside) AS first_inside,
              count(*) FILTER (WHERE w.inside AND w.completed_day_end IS NOT NULL) AS completed,
              count(*) FILTER (WHERE w.inside AND w.next_made < w.completed_day_end) AS rebooked
         FROM w GROUP BY w.client_id COLLATE "C", w.client_id),
     c AS (
       SELECT count(k.first_inside)::int AS total,
              count(*) FILTER (WHERE k.first_inside IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM bookings x
                 WHERE x.client_id = k.client_id AND x.start_at <= k.first_inside AND x.status <> 'declined'
                   AND (x.start_at < k.first_inside
                        OR (NOT (x.slot_date BETWEEN $3::date AND $4::date AND ($2::text IS NULL OR x.location_id = $2))
                            AND NOT EXISTS (
                              SELECT 1 FROM bookings y
                               WHERE y.client_id = k.client_id AND y.start_at = k.first_inside AND y.status <> 'declined'
                                 AND y.slot_date BETWEEN $3::date AND $4::date AND ($2::text IS NULL OR y.location_id = $2)
                                 AND y.id < x.id)))))::int AS fresh,
              coalesce(sum(k.completed), 0)::int AS completed, coalesce(sum(k.rebooked), 0)::int AS rebooked
         FROM k)
     SELECT g.*, st.name AS staff_name, sv.name AS service_name, c.*
       FROM c LEFT JOIN (g LEFT JOIN services sv ON sv.id = g.service_id LEFT JOIN staff st ON st.id = g.staff_id) ON true`,
    [...scopeParams(s), noticeMinutes],
  );
  const counts = new Map<string, StatusSourceCount>();
  const pairs = new Map<string, StaffServiceFigures & { workSeconds: number }>();
  let lateCancelled = 0;
  for (const row of r.rows) {
    // no booking in the period: one row of client figures alone
    if (row.status === null || row.source === null || row.service_id === null) continue;
    const n = Number(row.n);
    const c = counts.get(`${row.status} ${row.source}`);
    if (c) c.count += n;
    else counts.set(`${row.status} ${row.source}`, { status: row.status, source: row.source, count: n });
    lateCancelled += Number(row.late);
    // a booking's service is never deleted (a foreign key); were it gone, its pair would not be summed
    if (row.service_name === null) continue;
    const key = JSON.stringify([row.staff_id, row.service_id]);
    let p = pairs.get(key);
    if (!p) {
      p = {
        staffId: row.staff_id,
        staffName: row.staff_name,
        serviceId: row.service_id,
        serviceName: row.service_name,
        bookedMinor: 0,
        completedMinor: 0,
        workMinutes: 0,
        workSeconds: 0,
      };
      pairs.set(key, p);
    }
    const price = Number(row.price ?? 0);
    if (row.status === 'confirmed' || row.status === 'completed') p.bookedMinor += price;
    if (row.status === 'completed') p.completedMinor += price;
    p.workSeconds += Number(row.work ?? 0);
  }
  const first = r.rows[0];
  return {
    counts: [...counts.values()],
    pairs: [...pairs.values()].map(({ workSeconds, ...p }) => ({ ...p, workMinutes: Math.round(workSeconds / 60) })),
    lateCancelled,
    clients: { total: Number(first?.total ?? 0), new: Number(first?.fresh ?? 0) },
    rebooking: { completed: Number(first?.completed ?? 0), rebooked: Number(first?.rebooked ?? 0) },
  };
}

export interface ReportStaff {
  id: string;
  name: string;
  timezone: string;
  hours: WeeklyHours[];
  timeOff: Span[];
}

/**
 * The staff whose working time a report counts: the active staff of the location (or of every
 * location), and anyone else with a booking in the period; with their weekly hours and their time
 * off within [from, to) as epoch milliseconds.
 */
export async function loadReportStaff(
  q: Queryable,
  s: ReportScope,
  bookedStaffIds: readonly string[],
  from: Date,
  to: Date,
): Promise<ReportStaff[]> {
  const r = await q.query<{ id: string; name: string; timezone: string; hours: string | null; time_off: string | null }>(
    `SELECT s.id, s.name, l.timezone,
            (SELECT string_agg(w.weekday || ' ' || w.start_minute || ' ' || w.end_minute, ' ')
               FROM working_hours w WHERE w.staff_id = s.id) AS hours,
            (SELECT string_agg(date_part('epoch', t.start_at) * 1000 || ' ' || date_part('epoch', t.end_at) * 1000, ' ')
               FROM time_off t WHERE t.staff_id = s.id AND t.start_at < $4 AND t.end_at > $3) AS time_off
       FROM staff s JOIN locations l ON l.id = s.location_id
      WHERE l.business_id = $1 AND ($2::text IS NULL OR s.location_id = $2) AND (s.active OR s.id = ANY($5::text[]))
      ORDER BY s.name, s.id`,
    [s.businessId, s.locationId, from, to, bookedStaffIds],
  );
  return r.rows.map((row) => {
    const h = numbers(row.hours);
    const t = numbers(row.time_off);
    const hours: WeeklyHours[] = [];
    for (let i = 0; i + 2 < h.length; i += 3) hours.push({ weekday: h[i]!, startMinute: h[i + 1]!, endMinute: h[i + 2]! });
    const timeOff: Span[] = [];
    for (let i = 0; i + 1 < t.length; i += 2) timeOff.push({ start: t[i]!, end: t[i + 1]! });
    return { id: row.id, name: row.name, timezone: row.timezone, hours, timeOff };
  });
}

function numbers(text: string | null): number[] {
  return text === null || text === '' ? [] : text.split(' ').map(Number);
}

export interface ExportRow {
  id: string;
  startAt: Date;
  reference: string;
  date: string;
  start: string;
  end: string;
  service: string;
  staff: string | null;
  status: string;
  source: string;
  priceType: string | null;
  priceMinor: number | null;
  priceCurrency: string | null;
  /** the client's name: `Erased client` once erased */
  client: string;
}

/** Where an export page reads: one location, its period as local dates and as a wider instant range. */
export interface ExportScope {
  locationId: string;
  from: string;
  to: string;
  /** instants at least as wide as the local dates, so the (location_id, start_at) index bounds the scan */
  startFrom: Date;
  startTo: Date;
}

/**
 * Up to `limit` of a location's bookings in the period, by start, from `after` on (`inclusive`
 * says whether a booking starting at `after` itself is read). Ordered by the start alone, as
 * bookings_location_start_idx is: each page reads its own rows from the index and stops, with no
 * sort of the period, whatever plan a prepared statement ends up with. The caller orders the
 * bookings of one start by id and never splits them between pages.
 */
export async function exportPage(q: Queryable, s: ExportScope, after: Date, inclusive: boolean, limit: number): Promise<ExportRow[]> {
  const r = await q.query<{
    id: string;
    start_at: Date;
    public_reference: string;
    slot_date: string;
    slot_start_time: string;
    slot_end_time: string;
    service_name: string;
    staff_name: string | null;
    status: string;
    source: string;
    price_type: string | null;
    price_minor: string | number | null;
    price_currency: string | null;
    client_name: string;
  }>(
    `SELECT b.id, b.start_at, b.public_reference, b.slot_date::text AS slot_date, b.slot_start_time, b.slot_end_time,
            b.service_name, b.staff_name, b.status, b.source, b.price_type, b.price_minor, b.price_currency, c.name AS client_name
       FROM bookings b JOIN clients c ON c.id = b.client_id
      WHERE b.location_id = $1 AND b.start_at ${inclusive ? '>=' : '>'} $4 AND b.start_at < $5
        AND b.slot_date BETWEEN $2::date AND $3::date
      ORDER BY b.start_at
      LIMIT $6`,
    [s.locationId, s.from, s.to, after, s.startTo, limit],
  );
  return r.rows.map((row) => ({
    id: row.id,
    startAt: row.start_at,
    reference: row.public_reference,
    date: row.slot_date,
    start: row.slot_start_time,
    end: row.slot_end_time,
    service: row.service_name,
    staff: row.staff_name,
    status: row.status,
    source: row.source,
    priceType: row.price_type,
    priceMinor: row.price_minor === null ? null : Number(row.price_minor),
    priceCurrency: row.price_currency,
    client: row.client_name,
  }));
}
