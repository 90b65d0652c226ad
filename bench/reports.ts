/**
 * `npm run bench:reports` (clients-and-reports.md, issue 28: "a year's report of a location with 20
 * staff and 50,000 bookings answers in under 500 ms on PostgreSQL and under 2 s on the embedded
 * database"): one business, one location (Europe/Budapest), 20 staff working Monday to Saturday
 * 9:00-19:00, four services (fixed, from, negotiable prices; one with processing time) and 50,000
 * bookings over 2025, Sundays closed: completed, cancelled (early and late, each with its event),
 * no-shows, declined requests, and confirmed or requested ones in December (the future of a report
 * read in late November), from the booking page, the API and the front desk, 9,000 clients
 * linked by the database's own trigger (about six visits a year each), and before them 8,320
 * bookings of November and December 2024, so most clients return. The report's use case for the whole
 * year of the location is run RUNS times after WARMUP, in process; p50 and p99 in ms beside a bare
 * `SELECT 1` of the same database in the same run. The CSV export of the same year is timed too (no
 * target). PGlite in a fresh temporary folder; PostgreSQL too when DATABASE_URL is set (a database
 * of its own, dropped at the end).
 */
import { reportPeriod } from '../src/domain/reports/period.ts';
import type { Db } from '../src/store/db.ts';
import { inEachDatabase, time } from './in-each-database.ts';
import { migrate } from '../src/store/migrate.ts';
import { bookingsCsv } from '../src/use-cases/reports/bookings-csv.ts';
import { getReport } from '../src/use-cases/reports/report.ts';

const BOOKINGS = 50_000;
/** the bookings of November and December 2024 before them (52 open days, four slots in five), so clients return */
const HISTORY = 8_320;
const STAFF = 20;
const CLIENTS = 9_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CSV_RUNS = 3;
const TARGET_MS = { pglite: 2_000, postgres: 500 } as const;
const PERIOD = reportPeriod('2025-01-01', '2025-12-31');

export async function seed(db: Db): Promise<void> {
  await db.query("INSERT INTO businesses (id, slug, name, currency) VALUES ('biz_bench', 'bench-salon', 'Bench', 'HUF')");
  await db.query(
    `INSERT INTO locations (id, business_id, slug, name, public_location_name, timezone, city, street, zip)
     VALUES ('loc_bench', 'biz_bench', 'main', 'Main', 'Main', 'Europe/Budapest', 'Budapest', 'Fő utca 1.', '1011')`,
  );
  await db.query(
    `INSERT INTO services (id, business_id, location_id, name, duration_minutes, price_type, price_minor, request_acceptance_policy, pricing_version)
     VALUES ('svc_cut', 'biz_bench', 'loc_bench', 'Cut', 45, 'fixed', 900000, 'automatic', 'pv1'),
            ('svc_colour', 'biz_bench', 'loc_bench', 'Colour', 60, 'fixed', 1800000, 'automatic', 'pv1'),
            ('svc_beard', 'biz_bench', 'loc_bench', 'Beard', 30, 'from', 450000, 'automatic', 'pv1'),
            ('svc_consult', 'biz_bench', 'loc_bench', 'Consultation', 30, 'negotiable', NULL, 'manual', 'pv1')`,
  );
  await db.query(
    `INSERT INTO staff (id, business_id, location_id, name)
     SELECT 'stf_' || s, 'biz_bench', 'loc_bench', 'Staff ' || lpad(s::text, 2, '0') FROM generate_series(0, ${STAFF - 1}) AS s`,
  );
  // Monday to Saturday, 9:00-19:00; Sunday closed.
  await db.query(
    `INSERT INTO working_hours (staff_id, weekday, start_minute, end_minute)
     SELECT 'stf_' || s, d, 540, 1140 FROM generate_series(0, ${STAFF - 1}) AS s, generate_series(1, 6) AS d`,
  );
  // A week's holiday in August and a day off in March for each staff member.
  await db.query(
    `INSERT INTO time_off (id, staff_id, start_at, end_at)
     SELECT 'off_' || s || '_' || k, 'stf_' || s,
            (date '2025-08-04' + (s % 3) * 7 + (k - 1) * 200)::timestamp AT TIME ZONE 'Europe/Budapest',
            (date '2025-08-04' + (s % 3) * 7 + (k - 1) * 200 + CASE k WHEN 1 THEN 7 ELSE 1 END)::timestamp AT TIME ZONE 'Europe/Budapest'
       FROM generate_series(0, ${STAFF - 1}) AS s, generate_series(1, 2) AS k`,
  );
  // 313 open days × 20 staff × 10 hourly slots = 62,600 slots; every fifth is left free.
  // h spreads statuses, sources, services and clients over the slots without a pattern per staff.
  const batch = 5_000;
  for (let from = 0; from < HISTORY + BOOKINGS; from += batch) {
    await db.query(
      `WITH days AS (
         SELECT d::date AS day, row_number() OVER (ORDER BY d)::int - 1 AS n
           FROM generate_series(date '2024-11-01', date '2025-12-31', interval '1 day') AS d
          WHERE extract(isodow FROM d) <> 7),
       slots AS (
         SELECT i, (i * 5) / 4 AS j, (i * 2654435761::bigint % 1000)::int AS h FROM generate_series($1::int, $2::int) AS i),
       b AS (
         SELECT s.i, s.h, 'stf_' || (s.j % ${STAFF}) AS staff_id, 'Staff ' || lpad((s.j % ${STAFF})::text, 2, '0') AS staff_name,
                days.day, 9 + (s.j / ${STAFF}) % 10 AS hour,
                CASE WHEN s.h % 4 = 0 THEN 'svc_colour' WHEN s.h % 4 = 1 THEN 'svc_beard' WHEN s.h % 20 = 3 THEN 'svc_consult' ELSE 'svc_cut' END AS service_id,
                (s.i * 7) % ${CLIENTS} AS client
           FROM slots s JOIN days ON days.n = s.j / ${STAFF * 10}),
       t AS (
         SELECT b.*, sv.name AS service_name, sv.duration_minutes, sv.price_type, sv.price_minor,
                (b.day + make_time(b.hour, 0, 0)) AT TIME ZONE 'Europe/Budapest' AS start_at,
                CASE WHEN b.day >= date '2025-12-01' THEN
                       CASE WHEN b.h < 50 THEN 'cancelled' WHEN b.h < 90 THEN 'requested' ELSE 'confirmed' END
                     WHEN b.h < 100 THEN 'cancelled' WHEN b.h < 140 THEN 'noShow' WHEN b.h < 170 THEN 'declined'
                     ELSE 'completed' END AS status,
                CASE WHEN b.h % 10 < 5 THEN 'bookingPage' WHEN b.h % 10 < 8 THEN 'manual' ELSE 'api' END AS source
           FROM b JOIN services sv ON sv.id = b.service_id)
       INSERT INTO bookings (id, business_id, location_id, service_id, staff_id, public_reference, status, state_version, acceptance_mode,
          service_name, staff_name, location_snapshot, timezone, start_at, end_at, slot_date, slot_start_time, slot_end_time,
          occupied, occupied_staff_id, processing, guest_name, guest_phone, guest_email, source, price_type, price_minor, price_currency,
          created_at, updated_at)
       SELECT 'bkg_' || t.i, 'biz_bench', 'loc_bench', t.service_id, t.staff_id, 'BK-' || t.i, t.status, 1, 'automatic',
              t.service_name, t.staff_name, '{}', 'Europe/Budapest', t.start_at, t.start_at + make_interval(mins => t.duration_minutes),
              t.day, lpad(t.hour::text, 2, '0') || ':00', to_char(make_time(t.hour, 0, 0) + make_interval(mins => t.duration_minutes), 'HH24:MI'),
              tstzrange(t.start_at, t.start_at + make_interval(mins => t.duration_minutes), '[)'), t.staff_id,
              CASE WHEN t.service_id = 'svc_colour'
                   THEN tstzmultirange(tstzrange(t.start_at + interval '20 minutes', t.start_at + interval '45 minutes', '[)'))
                   ELSE '{}' END,
              'Vendég ' || t.client, '+3670' || lpad(t.client::text, 7, '0'),
              CASE WHEN t.client % 3 = 0 THEN NULL ELSE 'client' || t.client || '@example.com' END,
              t.source, t.price_type, t.price_minor, 'HUF',
              t.start_at - make_interval(days => 1 + t.h % 80, hours => t.h % 7), t.start_at - make_interval(days => 1 + t.h % 80, hours => t.h % 7)
         FROM t ORDER BY t.i`,
      [from, Math.min(HISTORY + BOOKINGS, from + batch) - 1],
    );
  }
  // The event of each cancellation: a third of them within the day before the start (late).
  await db.query(
    `INSERT INTO booking_events (booking_id, sequence, business_id, event, from_status, to_status, occurred_at, delivery_id, payload, actor)
     SELECT b.id, 2, b.business_id, 'booking.cancelled', 'confirmed', 'cancelled',
            b.start_at - CASE WHEN hashtext(b.id) % 3 = 0 THEN interval '3 hours' ELSE interval '3 days' END,
            'del_c_' || b.id, '{}', 'guest'
       FROM bookings b WHERE b.status = 'cancelled'`,
  );
  await db.query(
    `INSERT INTO booking_events (booking_id, sequence, business_id, event, to_status, occurred_at, delivery_id, payload, actor)
     SELECT b.id, 1, b.business_id, 'booking.created', 'confirmed', b.created_at, 'del_' || b.id, '{}', 'guest' FROM bookings b`,
  );
}

async function csvBytes(db: Db): Promise<number> {
  let bytes = 0;
  for await (const chunk of await bookingsCsv(db, 'bench-salon', 'main', PERIOD)) bytes += (chunk as Buffer).length;
  return bytes;
}

async function measure(name: string, db: Db): Promise<boolean> {
  const t0 = performance.now();
  await migrate(db);
  await seed(db);
  // what the hourly housekeeping does (PGlite has no autovacuum to gather statistics)
  await db.query('ANALYZE');
  const counts = (
    await db.query<{ bookings: number; clients: number }>(
      'SELECT (SELECT count(*) FROM bookings)::int AS bookings, (SELECT count(*) FROM clients)::int AS clients',
    )
  ).rows[0]!;
  console.log(
    `\n## ${name}: ${counts.bookings} bookings (${HISTORY} of them in 2024), ${counts.clients} clients, ${STAFF} staff seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const report = await getReport(db, 'bench-salon', 'main', PERIOD);
  console.log(
    `(the report: ${report.bookings.total} bookings, utilisation ${report.utilisation.overall.ratio}, no-show rate ${report.noShowRate}, ` +
      `late cancellations ${report.lateCancellationRate}, clients new ${report.clients.new} / returning ${report.clients.returning}, ` +
      `rebooking ${report.rebookingRate})`,
  );
  const bare = await time(() => db.query('SELECT 1'), 60, 10);
  const year = await time(() => getReport(db, 'bench-salon', 'main', PERIOD), RUNS, WARMUP);
  let bytes = 0;
  const csv = await time(
    async () => {
      bytes = await csvBytes(db);
    },
    CSV_RUNS,
    1,
  );
  const target = TARGET_MS[db.kind];
  const ok = year.p50 < target && year.p99 < target;
  console.log('| what | p50 ms | p99 ms | p50 ÷ bare SELECT 1 |');
  console.log('|---|---|---|---|');
  console.log(`| report, the location's year | ${year.p50.toFixed(0)} | ${year.p99.toFixed(0)} | ${(year.p50 / bare.p50).toFixed(0)} |`);
  console.log(
    `| CSV export, the location's year (${(bytes / 1e6).toFixed(1)} MB; ${CSV_RUNS} runs) | ${csv.p50.toFixed(0)} | ${csv.p99.toFixed(0)} | ${(csv.p50 / bare.p50).toFixed(0)} |`,
  );
  console.log(
    `(bare SELECT 1: p50 ${bare.p50.toFixed(2)} ms; report ${RUNS} runs after ${WARMUP}; target p50 and p99 < ${target} ms: ${ok ? 'PASS' : 'FAIL'})`,
  );
  return ok;
}

if (process.argv[1]?.endsWith('reports.ts')) await inEachDatabase('reports', measure);
