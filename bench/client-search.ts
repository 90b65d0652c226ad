/**
 * `npm run bench:clients` (clients-and-reports.md, issue 28: "client search in under 50 ms over
 * 20,000 clients"): a business with 20,000 clients (one completed booking each, linked by the
 * database's own trigger as every booking is) and the client list's use case, in process, for the
 * searches a receptionist types: part of a name without and with accents, part of an email, phone
 * digits, and the unfiltered first page. Each is run RUNS times after WARMUP; prints p50 and p99 in
 * ms beside a bare `SELECT 1` of the same database in the same run (the ratio says how much of the
 * time is the search). PGlite in a fresh temporary folder; PostgreSQL too when DATABASE_URL is set
 * (a database of its own, dropped at the end).
 */
import type { Db } from '../src/store/db.ts';
import { inEachDatabase, time } from './in-each-database.ts';
import { migrate } from '../src/store/migrate.ts';
import { listClients } from '../src/use-cases/clients/list.ts';

const CLIENTS = 20_000;
const RUNS = 60;
const WARMUP = 10;
const TARGET_MS = 50;
const SECRET = Buffer.alloc(32, 7);
const FIRST = ['Anna', 'Éva', 'Zsófia', 'Ödön', 'Bence', 'Réka', 'Gábor', 'Ágnes', 'Péter', 'Dóra', 'Imre', 'Lili'];
const LAST = ['Kovács', 'Szabó', 'Tóth', 'Nagy', 'Horváth', 'Kiss', 'Molnár', 'Varga', 'Farkas', 'Balogh', 'Török', 'Fehér'];

export async function seed(db: Db): Promise<void> {
  await db.query("INSERT INTO businesses (id, slug, name, currency) VALUES ('biz_bench', 'bench-salon', 'Bench', 'HUF')");
  await db.query(
    `INSERT INTO locations (id, business_id, slug, name, public_location_name, timezone, city, street, zip)
     VALUES ('loc_bench', 'biz_bench', 'main', 'Main', 'Main', 'Europe/Budapest', 'Budapest', 'Fő utca 1.', '1011')`,
  );
  await db.query(
    `INSERT INTO services (id, business_id, location_id, name, duration_minutes, price_type, request_acceptance_policy, pricing_version)
     VALUES ('svc_bench', 'biz_bench', 'loc_bench', 'Cut', 60, 'fixed', 'automatic', 'pv1')`,
  );
  const first = `(ARRAY[${FIRST.map((n) => `'${n}'`).join(',')}])[1 + i % ${FIRST.length}]`;
  const last = `(ARRAY[${LAST.map((n) => `'${n}'`).join(',')}])[1 + (i / ${FIRST.length}) % ${LAST.length}]`;
  // 2,000 at a time: one statement per batch, each row a new guest (a new client by the trigger)
  for (let from = 0; from < CLIENTS; from += 2_000) {
    await db.query(
      `INSERT INTO bookings (id, business_id, location_id, service_id, public_reference, status, state_version, acceptance_mode,
          service_name, location_snapshot, timezone, start_at, end_at, slot_date, slot_start_time, slot_end_time, occupied,
          guest_name, guest_phone, guest_email, source, created_at, updated_at)
       SELECT 'bkg_' || i, 'biz_bench', 'loc_bench', 'svc_bench', 'BK-' || i, 'completed', 1, 'automatic', 'Cut', '{}',
              'Europe/Budapest', s, s + interval '1 hour', s::date, '10:00', '11:00', tstzrange(s, s + interval '1 hour', '[)'),
              ${last} || ' ' || ${first} || ' ' || i, '+3630' || lpad(i::text, 7, '0'), 'guest' || i || '@example.com', 'manual', s, s
         FROM generate_series($1::int, $2::int) AS i, LATERAL (SELECT timestamptz '2025-01-01 09:00Z' + (i || ' hours')::interval AS s) t`,
      [from, from + 1_999],
    );
  }
}

async function measure(name: string, db: Db): Promise<boolean> {
  const t0 = performance.now();
  await migrate(db);
  await seed(db);
  // what the hourly housekeeping does (PGlite has no autovacuum to gather statistics)
  await db.query('ANALYZE');
  const count = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM clients')).rows[0]!.n;
  console.log(`\n## ${name}: ${count} clients seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const bare = await time(() => db.query('SELECT 1'), RUNS, WARMUP);
  const searches: Array<[string, string | undefined]> = [
    ['first page, no search', undefined],
    ['name without accents: "eva"', 'eva'],
    ['name with accents: "Ödön T"', 'Ödön T'],
    ['email part: "guest1234@"', 'guest1234@'],
    ['phone digits: "30 000 12"', '30 000 12'],
    ['no match: "zzz"', 'zzz'],
  ];
  console.log('| search | p50 ms | p99 ms | p50 ÷ bare SELECT 1 |');
  console.log('|---|---|---|---|');
  let ok = true;
  for (const [label, q] of searches) {
    const r = await time(
      () =>
        listClients(db, { slug: 'bench-salon', secret: SECRET, q, limit: 50, cursor: undefined, now: new Date('2026-06-01T00:00:00Z') }),
      RUNS,
      WARMUP,
    );
    ok &&= r.p99 < TARGET_MS;
    console.log(`| ${label} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.p50 / bare.p50).toFixed(0)} |`);
  }
  console.log(`(bare SELECT 1: p50 ${bare.p50.toFixed(2)} ms; target p99 < ${TARGET_MS} ms: ${ok ? 'met' : 'NOT met'})`);
  return ok;
}

if (process.argv[1]?.endsWith('client-search.ts')) await inEachDatabase('clients', measure);
