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
const IN_PERIOD = `b.business_id = $1 AND ($2::text IS NULL OR b.location_id = $2)
  AND b.slot_date BETWEEN $3::date AND $4::date`;

function scopeParams(s: ReportScope): unknown[] {
  return [s.businessId, s.locationId, s.from, s.to];
}

export interface StatusSourceCount {
  status: string;
  source: string;
  count: number;
}

/** Bookings of the period by status and source (at most 21 rows, however many bookings). */
export async function countByStatusAndSource(q: Queryable, s: ReportScope): Promise<StatusSourceCount[]> {
  const r = await q.query<{ status: string; source: string; n: number }>(
    `SELECT b.status, b.source, count(*)::int AS n FROM bookings b WHERE ${IN_PERIOD} GROUP BY b.status, b.source`,
    scopeParams(s),
  );
  return r.rows.map((row) => ({ status: row.status, source: row.source, count: Number(row.n) }));
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

/**
 * Revenue and worked minutes per (staff member, service) pair of the period, summed in SQL. The
 * price is the booking's own snapshot (migration 025); start_at..end_at is the appointment without
 * its buffers, and its processing parts are not the staff member's time.
 */
export async function sumByStaffAndService(q: Queryable, s: ReportScope): Promise<StaffServiceFigures[]> {
  const r = await q.query<{
    staff_id: string | null;
    staff_name: string | null;
    service_id: string;
    service_name: string;
    booked: string | number | null;
    completed: string | number | null;
    work: string | number | null;
  }>(
    `WITH f AS (
       SELECT b.staff_id, b.service_id, b.status,
              CASE WHEN b.price_type IN ('fixed', 'from') THEN coalesce(b.price_minor, 0) ELSE 0 END AS price,
              date_part('epoch', b.end_at - b.start_at) / 60
                - coalesce((SELECT sum(date_part('epoch', upper(p) - lower(p))) FROM unnest(b.processing) AS p), 0) / 60 AS work
         FROM bookings b WHERE ${IN_PERIOD})
     SELECT f.staff_id, st.name AS staff_name, f.service_id, sv.name AS service_name,
            sum(f.price) FILTER (WHERE f.status IN ('confirmed', 'completed')) AS booked,
            sum(f.price) FILTER (WHERE f.status = 'completed') AS completed,
            sum(f.work) FILTER (WHERE f.status IN ('confirmed', 'completed', 'noShow')) AS work
       FROM f JOIN services sv ON sv.id = f.service_id LEFT JOIN staff st ON st.id = f.staff_id
      GROUP BY f.staff_id, st.name, f.service_id, sv.name`,
    scopeParams(s),
  );
  return r.rows.map((row) => ({
    staffId: row.staff_id,
    staffName: row.staff_name,
    serviceId: row.service_id,
    serviceName: row.service_name,
    bookedMinor: Number(row.booked ?? 0),
    completedMinor: Number(row.completed ?? 0),
    workMinutes: Math.round(Number(row.work ?? 0)),
  }));
}

/**
 * Cancelled bookings of the period whose cancellation (the time of its event) came less than
 * noticeMinutes before the start, or after it.
 */
export async function countLateCancellations(q: Queryable, s: ReportScope, noticeMinutes: number): Promise<number> {
  const r = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM bookings b
      WHERE ${IN_PERIOD} AND b.status = 'cancelled'
        AND (SELECT max(e.occurred_at) FROM booking_events e WHERE e.booking_id = b.id AND e.to_status = 'cancelled')
            > b.start_at - make_interval(mins => $5::int)`,
    [...scopeParams(s), noticeMinutes],
  );
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * The clients with a non-declined booking in the period, and how many of them are new: their first
 * non-declined booking at the business (by start) falls in the period (and at the location, when one
 * is asked). A declined request never held a time, so it makes nobody a client of the period.
 */
export async function countClients(q: Queryable, s: ReportScope): Promise<{ total: number; new: number }> {
  const r = await q.query<{ total: number; fresh: number }>(
    `WITH inside AS (SELECT DISTINCT b.client_id FROM bookings b WHERE ${IN_PERIOD} AND b.status <> 'declined')
     SELECT count(*)::int AS total,
            count(*) FILTER (WHERE f.slot_date BETWEEN $3::date AND $4::date AND ($2::text IS NULL OR f.location_id = $2))::int AS fresh
       FROM inside i
       LEFT JOIN LATERAL (
         SELECT x.slot_date, x.location_id FROM bookings x
          WHERE x.client_id = i.client_id AND x.status <> 'declined'
          ORDER BY x.start_at, x.id LIMIT 1) f ON true`,
    scopeParams(s),
  );
  return { total: Number(r.rows[0]?.total ?? 0), new: Number(r.rows[0]?.fresh ?? 0) };
}

/**
 * Completed bookings of the period, and those whose client, by the end of the visit's local day,
 * had made another booking for a later time that was neither cancelled nor declined. One window
 * over the business's bookings from the period on (the earliest making time among each booking's
 * later ones, peers of one start excluded), not a lookup per visit: a year of visits is one sort.
 * Two days before `from` covers a later booking at a location whose zone is a day apart.
 */
export async function countRebookings(q: Queryable, s: ReportScope): Promise<{ completed: number; rebooked: number }> {
  const r = await q.query<{ completed: number; rebooked: number }>(
    `WITH w AS (
       SELECT b.status, b.slot_date, b.timezone, b.location_id,
              min(b.created_at) OVER (PARTITION BY b.client_id ORDER BY b.start_at
                                      RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING EXCLUDE GROUP) AS next_made
         FROM bookings b
        WHERE b.business_id = $1 AND b.slot_date >= $3::date - 2 AND b.status NOT IN ('cancelled', 'declined'))
     SELECT count(*)::int AS completed,
            count(*) FILTER (WHERE w.next_made < ((w.slot_date + 1)::timestamp AT TIME ZONE w.timezone))::int AS rebooked
       FROM w
      WHERE w.status = 'completed' AND w.slot_date BETWEEN $3::date AND $4::date AND ($2::text IS NULL OR w.location_id = $2)`,
    scopeParams(s),
  );
  return { completed: Number(r.rows[0]?.completed ?? 0), rebooked: Number(r.rows[0]?.rebooked ?? 0) };
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
