/**
 * Load benchmark of POST /v1/bookings on PostgreSQL (DATABASE_URL) or PGlite (without it, or BENCH_DB=pglite): the real app on 127.0.0.1 (random port), a
 * salon with 20 staff working 09:00-17:00 every day, and autocannon (in a child process) at concurrency 50 where every
 * request books a different free 30-minute slot with a fresh Idempotency-Key (automatic service,
 * so each create is the full requested → confirmed transaction). Prints creates/s, p50, p99 and
 * the status counts, then checks the database (one booking per 201, no overlaps).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/booking_bench npm run bench:bookings
 *
 * Optional: BENCH_REQUESTS (default 2000), BENCH_CONNECTIONS (50), BENCH_WARMUP (200),
 * DB_POOL_MAX (the app's pool size, default 20), BENCH_CPU_PROFILE (a file: the server's CPU profile of
 * the measured requests, for Chrome DevTools). Use a throw-away database: the bench never cleans up.
 */
import { fork } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/store/migrate.ts';
import type { Db } from '../src/store/db.ts';
import { PgliteDb } from '../src/store/pglite-db.ts';
import { PostgresDb } from '../src/store/postgres-db.ts';
import { overlapCountSql } from '../test/helpers/overlaps.ts';
import { openRateLimits } from './never-refusing.ts';
import type { LoadSpec } from './load-process.ts';
import { createBenchSalon } from './salon.ts';

// PostgreSQL when DATABASE_URL is set (unless BENCH_DB=pglite), else PGlite in a fresh temp folder.
const url = process.env.BENCH_DB === 'pglite' ? undefined : process.env.DATABASE_URL;
if (url !== undefined && !url.startsWith('postgres')) {
  console.error('bench:bookings takes DATABASE_URL=postgres://… (a throw-away database, e.g. booking_bench), or none for PGlite');
  process.exit(2);
}
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
const STAFF = 20;
const FIRST_DAY_OFFSET = 2; // days after today (local), well past the 60-minute notice
const SLOT_TIMES = Array.from({ length: 16 }, (_, i) => `${String(9 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);
const TIME_ZONE = 'Europe/Budapest';
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

const config = loadConfig({
  ...process.env,
  ADMIN_TOKEN,
  WEBHOOK_WORKER: 'false',
  NOTIFICATION_WORKER: 'false',
  SEED_DEMO: 'false',
  LOG_LEVEL: 'silent',
});
const pgliteDir = url === undefined ? await mkdtemp(join(tmpdir(), 'bench-bookings-pglite-')) : undefined;
const db: Db = url === undefined ? await PgliteDb.open(join(pgliteDir!, 'data')) : PostgresDb.open(url, config.dbPoolMax);
const dbName = url === undefined ? 'PGlite' : 'PostgreSQL';
await migrate(db);
// The production limiter runs on every request (its cost is part of the figure), its refusals ignored.
const rateLimitStore = await openRateLimits();
const app = await buildApp({ config, db, logger: false, rateLimitStore });
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as AddressInfo;

// --- the salon -------------------------------------------------------------------------------
const { tag, location, service, staffIds, apiKey, business } = await createBenchSalon(app, {
  adminToken: ADMIN_TOKEN,
  tag: `bench-${Date.now().toString(36)}`,
  timezone: TIME_ZONE,
  staff: STAFF,
  acceptance: 'automatic',
  capabilities: ['booking.create', 'booking.read'],
});
const businessId = business.id;

// Every (staff, day, time) is one disjoint slot; request n takes slot n.
const localDate = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
const perDay = STAFF * SLOT_TIMES.length;
const days = Math.ceil((REQUESTS + WARMUP) / perDay);
const dates = Array.from({ length: days }, (_, d) => localDate.format(new Date(Date.now() + (FIRST_DAY_OFFSET + d) * 86_400_000)));
let next = 0;
function nextBody(): string {
  const n = next++;
  const staffId = staffIds[n % STAFF]!;
  const within = Math.floor(n / STAFF);
  const date = dates[Math.floor(within / SLOT_TIMES.length)];
  const startTime = SLOT_TIMES[within % SLOT_TIMES.length];
  if (date === undefined || startTime === undefined) throw new Error(`ran out of slots at request ${n}`);
  return JSON.stringify({
    salonSlug: tag,
    locationSlug: location.slug,
    serviceId: service.id,
    expectedPricingVersion: service.pricingVersion,
    staffId,
    slot: { date, startTime },
    guest: { name: `Guest ${n}`, phone: `+3630${String(1_000_000 + (n % 9_000_000))}`, email: `guest${n}@example.com` },
    consent: {
      privacyNoticeVersion: 'pn-1',
      termsVersion: 'tos-1',
      locale: 'hu-HU',
      acceptedAt: new Date().toISOString(),
      policyConsentGiven: true,
    },
  });
}

/** The load runs in a child process (bench/load-process.ts), so it does not share the server's thread. */
async function load(amount: number): Promise<autocannon.Result> {
  const spec: LoadSpec = {
    url: `http://127.0.0.1:${port}`,
    path: '/v1/bookings',
    connections: CONNECTIONS,
    headers: { authorization: `Bearer ${apiKey.secret}`, 'content-type': 'application/json' },
    bodies: Array.from({ length: amount }, nextBody),
  };
  const child = fork(fileURLToPath(new URL('./load-process.ts', import.meta.url)), { execArgv: ['--import', 'tsx'] });
  const result = new Promise<autocannon.Result>((resolve, reject) => {
    child.once('message', (m) => resolve(m as autocannon.Result));
    child.once('exit', (code) => reject(new Error(`load process exited with ${code}`)));
  });
  child.send(spec);
  return result;
}

function statusCounts(r: autocannon.Result): Record<string, number> {
  const stats = (r as unknown as { statusCodeStats?: Record<string, { count: number | string }> }).statusCodeStats ?? {};
  return Object.fromEntries(Object.entries(stats).map(([code, s]) => [code, Number(s.count)]));
}

console.log(
  `# POST /v1/bookings on ${dbName} (caches ${app.ctx.caches.mode}) — ${STAFF} staff, ${days} days of free 30-minute slots, pool ${config.dbPoolMax}`,
);
if (WARMUP > 0) {
  const w = await load(WARMUP);
  console.log(`warm-up: ${WARMUP} requests, statuses ${JSON.stringify(statusCounts(w))}`);
}
const before = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings WHERE business_id = $1', [businessId])).rows[0]!.n;
/**
 * CPU time (ms) of this process and of the PostgreSQL backends serving this database, read from
 * /proc (the bench runs against a server on this machine): what a create costs, a steadier figure
 * than latency on a shared machine. Backends that exit in between are not counted.
 */
async function cpuMs(): Promise<{ node: number; postgres: Map<number, number> }> {
  const u = process.cpuUsage();
  if (url === undefined) return { node: (u.user + u.system) / 1000, postgres: new Map() };
  const { rows } = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  const postgres = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      postgres.set(pid, ((Number(f[11]) + Number(f[12])) * 1000) / 100); // USER_HZ is 100 on Linux
    } catch {
      // not on Linux, or the backend is gone
    }
  }
  return { node: (u.user + u.system) / 1000, postgres };
}

const PROFILE = process.env.BENCH_CPU_PROFILE;
const profiler = PROFILE ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const cpuBefore = await cpuMs();
const result = await load(REQUESTS);
const cpuAfter = await cpuMs();
// autocannon's own clock: from its first request to its last answer (the child's start-up is not load)
const seconds = result.duration;
if (profiler && PROFILE) {
  const { profile } = await profiler.post('Profiler.stop');
  await writeFile(PROFILE, JSON.stringify(profile));
  profiler.disconnect();
}
const counts = statusCounts(result);
const created = counts['201'] ?? 0;
const after = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings WHERE business_id = $1', [businessId])).rows[0]!.n;
const overlaps = (await db.query<{ n: number }>(overlapCountSql({ business: true, everyStatus: true }), [businessId])).rows[0]!.n;

console.log(`requests:    ${result.requests.total} at concurrency ${CONNECTIONS} in ${seconds.toFixed(2)} s`);
console.log(`statuses:    ${JSON.stringify(counts)}  (errors ${result.errors}, timeouts ${result.timeouts})`);
console.log(`creates/s:   ${(created / seconds).toFixed(0)}`);
console.log(
  `latency:     p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
);
let pgMs = 0;
for (const [pid, ms] of cpuAfter.postgres) pgMs += ms - (cpuBefore.postgres.get(pid) ?? 0);
console.log(
  `cpu/create:  server ${((cpuAfter.node - cpuBefore.node) / created).toFixed(2)} ms, postgres ${(pgMs / created).toFixed(2)} ms` +
    (url === undefined ? ' (PGlite: inside the server)' : cpuAfter.postgres.size === 0 ? ' (no /proc: not measured)' : ''),
);
console.log(`database:    ${after - before} new bookings for ${created} × 201, ${overlaps} overlaps`);
// issue 16's targets at concurrency 50
const target = url === undefined ? 1000 : 300;
console.log(`target p99 < ${target} ms: ${result.latency.p99 < target ? 'met' : 'NOT met'}`);

await app.close();
await rateLimitStore.close();
await db.close();
if (pgliteDir) await rm(pgliteDir, { recursive: true, force: true });
if (after - before !== created || overlaps !== 0 || created !== REQUESTS) process.exitCode = 1;
