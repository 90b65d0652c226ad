/**
 * `npm run bench:create-crowded` (issue 26, spec "Speed"): POST /v1/bookings at 50 in flight into a
 * month that already holds 2,000 bookings. Target: p99 under 1 s on PGlite, under 300 ms on PostgreSQL.
 *
 * World: bench/salon.ts's salon (20 staff working 09:00-17:00 every day, one automatic 30-minute
 * service) with the app's clock on the evening of 2027-02-28; 2,000 bookings on random free
 * (staff, day, half hour) of March 2027, written through the operator API 8 at a time, as
 * bench/availability.ts writes its month. Then BENCH_WARMUP (100) creates, not measured, and
 * BENCH_REQUESTS (1,000) measured ones, autocannon at BENCH_CONNECTIONS (50) in a child process
 * (bench/load-process.ts), each for a different free (staff, day, time) of that month, drawn at
 * random, with a fresh Idempotency-Key; every one should be a 201. The load process is killed after
 * BENCH_MAX_SECONDS (180). Then a bare Fastify route answering the very 201 body, with the same
 * load: ratio creates/s ÷ bare req/s. Afterwards the database is checked: one booking per 201 and
 * no overlaps.
 *
 * Also printed: the latency and the statements of one create alone (10 creates one at a time,
 * after the warm-up), the server's CPU per create (this process, PGlite included; on PostgreSQL the
 * backends' too, from /proc), a steadier figure than latency on a shared machine, and the load
 * average before and after. BENCH_PROFILE=file.cpuprofile writes the server's CPU profile of the
 * measured requests (file-pglite.cpuprofile, file-postgres.cpuprofile). BENCH_SEEDED (2,000) sets
 * the bookings already in the month, for an A/B against an empty one.
 *
 * Databases: PGlite in a fresh data directory under the temp folder; PostgreSQL when DATABASE_URL
 * is set, in a schema of its own (dropped at the end); BENCH_ONLY=pglite|postgres. The rate limiter
 * is the production one, never refusing (in Redis when REDIS_URL is set).
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Session } from 'node:inspector/promises';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { App } from '../src/http/context.ts';
import type { Db } from '../src/store/db.ts';
import { migrate } from '../src/store/migrate.ts';
import { PgliteDb } from '../src/store/pglite-db.ts';
import { PostgresDb } from '../src/store/postgres-db.ts';
import { overlapCountSql } from '../test/helpers/overlaps.ts';
import type { LoadSpec } from './load-process.ts';
import { openRateLimits } from './never-refusing.ts';
import { createBenchSalon } from './salon.ts';
import { mulberry32 } from './seeded-random.ts';

const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 100);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const MAX_SECONDS = Number(process.env.BENCH_MAX_SECONDS ?? 180);
const ONLY = process.env.BENCH_ONLY;
const PROFILE = process.env.BENCH_PROFILE;
const SEEDED = Number(process.env.BENCH_SEEDED ?? 2000);
const STAFF = 20;
const SEQUENTIAL = 10;
const TIME_ZONE = 'Europe/Budapest';
/** The app's clock: the evening before the month, so all of March is bookable. */
const NOW = new Date('2027-02-28T18:00:00.000Z');
const DATES = Array.from({ length: 31 }, (_, i) => `2027-03-${String(i + 1).padStart(2, '0')}`);
const TIMES = Array.from({ length: 16 }, (_, i) => `${String(9 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);

interface Slot {
  staff: number;
  date: string;
  time: string;
}

/** Every (staff, day, half hour) of March in a seeded random order: the first 2,000 are seeded, the rest are free. */
function shuffledSlots(): Slot[] {
  const all: Slot[] = [];
  for (const date of DATES) for (const time of TIMES) for (let staff = 0; staff < STAFF; staff++) all.push({ staff, date, time });
  const random = mulberry32(26);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const loads = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

/** autocannon in a child process, killed if it runs past MAX_SECONDS. */
async function load(url: string, headers: Record<string, string>, bodies: string[], connections = CONNECTIONS): Promise<autocannon.Result> {
  const spec: LoadSpec = { url, path: '/v1/bookings', connections, headers, bodies };
  const child = fork(fileURLToPath(new URL('./load-process.ts', import.meta.url)), { execArgv: ['--import', 'tsx'] });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<autocannon.Result>((resolve, reject) => {
      child.once('message', (m) => resolve(m as autocannon.Result));
      child.once('exit', (code) => reject(new Error(`load process exited with ${code}`)));
      timer = setTimeout(() => reject(new Error(`load still running after ${MAX_SECONDS} s: stopped`)), MAX_SECONDS * 1000);
      child.send(spec);
    });
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null && child.pid !== undefined) child.kill('SIGTERM');
  }
}

function statusCounts(r: autocannon.Result): Record<string, number> {
  const stats = (r as unknown as { statusCodeStats?: Record<string, { count: number | string }> }).statusCodeStats ?? {};
  return Object.fromEntries(Object.entries(stats).map(([code, s]) => [code, Number(s.count)]));
}

/** CPU (ms) of this process and, on PostgreSQL, of the backends serving this database (from /proc). */
async function cpuMs(db: Db): Promise<{ node: number; postgres: Map<number, number> }> {
  const u = process.cpuUsage();
  const postgres = new Map<number, number>();
  if (db.kind !== 'pglite') {
    const { rows } = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
    for (const { pid } of rows) {
      try {
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        postgres.set(pid, ((Number(f[11]) + Number(f[12])) * 1000) / 100); // USER_HZ is 100 on Linux
      } catch {
        // not on Linux, or the backend is gone
      }
    }
  }
  return { node: (u.user + u.system) / 1000, postgres };
}

interface TargetResult {
  name: string;
  seedSeconds: number;
  alone: { statements: number; ms: number };
  result: autocannon.Result;
  counts: Record<string, number>;
  createsPerSecond: number;
  bareRps: number;
  bareP99: number;
  cpu: { server: number; postgres: number | undefined };
  check: { created: number; overlaps: number };
  loadBefore: string;
  loadAfter: string;
}

async function runTarget(name: 'pglite' | 'postgres', db: Db): Promise<TargetResult> {
  console.log(`\n=== ${name} ===`);
  await migrate(db);
  const rateLimitStore = await openRateLimits();
  const config = loadConfig({
    ADMIN_TOKEN,
    WEBHOOK_WORKER: 'false',
    NOTIFICATION_WORKER: 'false',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    ...(process.env.DB_POOL_MAX ? { DB_POOL_MAX: process.env.DB_POOL_MAX } : {}),
  });
  const app: App = await buildApp({ config, db, logger: false, clock: () => NOW, rateLimitStore });
  try {
    const tag = `crowded-${process.pid}-${Date.now().toString(36)}`;
    const salon = await createBenchSalon(app, {
      adminToken: ADMIN_TOKEN,
      tag,
      timezone: TIME_ZONE,
      staff: STAFF,
      acceptance: 'automatic',
      capabilities: ['booking.create', 'booking.read'],
    });
    const slots = shuffledSlots();
    if (slots.length < SEEDED + WARMUP + REQUESTS + 1 + SEQUENTIAL) throw new Error('more requests than free slots in the month');

    // The crowded month: 2,000 bookings through the operator API, a few at a time.
    const t0 = performance.now();
    let next = 0;
    const writer = async () => {
      while (next < SEEDED) {
        const s = slots[next++]!;
        const r = await app.inject({
          method: 'POST',
          url: `/admin/v1/businesses/${tag}/bookings`,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          payload: {
            locationSlug: salon.location.slug,
            serviceId: salon.service.id,
            staffId: salon.staffIds[s.staff],
            date: s.date,
            startTime: s.time,
            guest: { name: 'Seeded Guest', phone: '+36301234567' },
          },
        });
        if (r.statusCode >= 300) throw new Error(`seeding ${JSON.stringify(s)} -> ${r.statusCode} ${r.body}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, writer));
    const seedSeconds = (performance.now() - t0) / 1000;
    console.log(`world: ${STAFF} staff, ${SEEDED} bookings over March 2027, written in ${fmt(seedSeconds)} s`);

    let guests = 0;
    const bodyOf = (s: Slot) => {
      const n = guests++;
      return JSON.stringify({
        salonSlug: tag,
        locationSlug: salon.location.slug,
        serviceId: salon.service.id,
        expectedPricingVersion: salon.service.pricingVersion,
        staffId: salon.staffIds[s.staff],
        slot: { date: s.date, startTime: s.time },
        guest: { name: `Guest ${n}`, phone: `+3630${String(1_000_000 + n)}`, email: `guest${n}@example.com` },
        consent: {
          privacyNoticeVersion: 'pn-1',
          termsVersion: 'tos-1',
          locale: 'hu-HU',
          acceptedAt: NOW.toISOString(),
          policyConsentGiven: true,
        },
      });
    };
    const free = slots.slice(SEEDED);
    const headers = { authorization: `Bearer ${salon.apiKey.secret}`, 'content-type': 'application/json' };

    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    const warm = free.slice(0, WARMUP).map(bodyOf);
    const measured = free.slice(WARMUP, WARMUP + REQUESTS).map(bodyOf);
    if (warm.length > 0)
      console.log(`warm-up: ${warm.length} creates, statuses ${JSON.stringify(statusCounts(await load(base, headers, warm)))}`);

    // the 201 the bare route answers
    const first = await fetch(`${base}/v1/bookings`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': randomUUID() },
      body: bodyOf(free[WARMUP + REQUESTS]!),
    });
    const sample = await first.text();
    if (first.status !== 201) throw new Error(`a create -> ${first.status} ${sample}`);

    // One create at a time, after the warm-up: its latency and its statements through Db.query (on
    // PGlite a write that may bump a cache version also reads the bumps in the same transaction).
    let statements = 0;
    const query = db.query.bind(db);
    db.query = ((sql: string, params?: unknown[]) => {
      statements++;
      return query(sql, params as never);
    }) as Db['query'];
    const one = await load(base, headers, free.slice(WARMUP + REQUESTS + 1, WARMUP + REQUESTS + 1 + SEQUENTIAL).map(bodyOf), 1);
    if (statusCounts(one)['201'] !== SEQUENTIAL) throw new Error(`creates one at a time: ${JSON.stringify(statusCounts(one))}`);
    const alone = { statements: statements / SEQUENTIAL, ms: one.latency.mean };
    db.query = query;
    console.log(`one create alone: ${fmt(alone.ms)} ms, ${fmt(alone.statements)} statements (mean of ${SEQUENTIAL}, one at a time)`);

    const countBookings = async () =>
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings WHERE business_id = $1', [salon.business.id])).rows[0]!.n;
    const before = await countBookings();
    const loadBefore = loads();
    console.log(`load average before: ${loadBefore} (${cpus().length} cores)`);
    const profiler = PROFILE ? new Session() : undefined;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    const cpuBefore = await cpuMs(db);
    const result = await load(base, headers, measured);
    const cpuAfter = await cpuMs(db);
    if (profiler && PROFILE) {
      const { profile } = await profiler.post('Profiler.stop');
      await writeFile(PROFILE.replace(/(\.cpuprofile)?$/, `-${name}.cpuprofile`), JSON.stringify(profile));
      profiler.disconnect();
    }
    const loadAfter = loads();
    const counts = statusCounts(result);
    const created = counts['201'] ?? 0;
    const after = await countBookings();
    const overlaps = (await db.query<{ n: number }>(overlapCountSql({ business: true, everyStatus: true }), [salon.business.id])).rows[0]!
      .n;
    let pgMs = 0;
    for (const [pid, ms] of cpuAfter.postgres) pgMs += ms - (cpuBefore.postgres.get(pid) ?? 0);
    const cpu = {
      server: (cpuAfter.node - cpuBefore.node) / Math.max(1, created),
      postgres: cpuAfter.postgres.size ? pgMs / created : undefined,
    };
    const createsPerSecond = created / result.duration;
    console.log(
      `creates: ${result.requests.total} at ${CONNECTIONS} in flight in ${fmt(result.duration, 2)} s, statuses ${JSON.stringify(counts)} ` +
        `(errors ${result.errors}, timeouts ${result.timeouts}); ${fmt(createsPerSecond, 0)} creates/s; ` +
        `p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    );

    // The bare route: the same load against a Fastify route that only answers the captured 201.
    const bare = Fastify({ logger: false });
    const captured = Buffer.from(sample);
    bare.post('/v1/bookings', async (_request, reply) =>
      reply.code(201).header('content-type', 'application/json; charset=utf-8').send(captured),
    );
    await bare.listen({ host: '127.0.0.1', port: 0 });
    let plain: autocannon.Result;
    try {
      plain = await load(`http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`, headers, measured);
    } finally {
      await bare.close();
    }
    const bareRps = plain.requests.total / plain.duration;
    console.log(
      `bare route: ${fmt(bareRps, 0)} req/s, p99 ${plain.latency.p99} ms; ratio creates/s ÷ bare ${(createsPerSecond / bareRps).toFixed(3)}`,
    );
    console.log(`database: ${after - before} new bookings for ${created} × 201, ${overlaps} overlaps; load average after: ${loadAfter}`);
    return {
      name,
      seedSeconds,
      alone,
      result,
      counts,
      createsPerSecond,
      bareRps,
      bareP99: plain.latency.p99,
      cpu,
      check: { created: after - before, overlaps },
      loadBefore,
      loadAfter,
    };
  } finally {
    await app.close();
    await rateLimitStore.close();
    await db.close();
  }
}

function printTable(results: TargetResult[]): void {
  console.log(
    `\n## POST /v1/bookings, ${REQUESTS} creates at ${CONNECTIONS} in flight, ${SEEDED} bookings already in the month; rate limits ${process.env.REDIS_URL ? 'in Redis' : 'in process'}; node ${process.version}; ${cpus().length} cores`,
  );
  console.log(
    '| Database | creates/s | p50 | p90 | p99 | max | statuses | server CPU / create | bare req/s (p99) | ratio | one alone | p99 target |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const target = r.name === 'pglite' ? 1000 : 300;
    const l = r.result.latency;
    const cpu = `${fmt(r.cpu.server, 2)} ms${r.cpu.postgres === undefined ? '' : ` (+ PostgreSQL ${fmt(r.cpu.postgres, 2)} ms)`}`;
    console.log(
      `| ${r.name} | ${fmt(r.createsPerSecond, 0)} | ${l.p50} ms | ${l.p90} ms | ${l.p99} ms | ${l.max} ms | ${JSON.stringify(r.counts)} | ${cpu} | ` +
        `${fmt(r.bareRps, 0)} (${r.bareP99} ms) | ${(r.createsPerSecond / r.bareRps).toFixed(3)} | ${fmt(r.alone.ms)} ms, ${fmt(r.alone.statements)} statements | ` +
        `< ${target} ms: ${l.p99 < target ? 'met' : 'MISSED'} |`,
    );
  }
  for (const r of results) {
    console.log(
      `${r.name}: seeded in ${fmt(r.seedSeconds)} s; ${r.check.created} new bookings, ${r.check.overlaps} overlaps; load average (1/5/15 min) before ${r.loadBefore}, after ${r.loadAfter}`,
    );
  }
}

async function main(): Promise<void> {
  console.log(
    `create-crowded bench: node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString()}`,
  );
  const results: TargetResult[] = [];
  if (ONLY !== 'postgres') {
    const dir = await mkdtemp(join(tmpdir(), 'bench-create-crowded-'));
    try {
      results.push(await runTarget('pglite', await PgliteDb.open(join(dir, 'data'))));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl && ONLY !== 'pglite') {
    // A schema of its own, dropped afterwards: nothing is left behind in the database.
    const schema = `bench_create_crowded_${process.pid}`;
    const admin = PostgresDb.open(databaseUrl, 1);
    await admin.exec(`CREATE SCHEMA ${schema}`);
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema},public`);
    try {
      results.push(await runTarget('postgres', PostgresDb.open(url.toString(), Number(process.env.DB_POOL_MAX ?? 20))));
    } finally {
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    }
  } else if (ONLY !== 'pglite') {
    console.log('\n=== postgres === skipped: DATABASE_URL is not set');
  }
  printTable(results);
  const failed = results.some(
    (r) => r.counts['201'] !== REQUESTS || r.check.created !== REQUESTS || r.check.overlaps !== 0 || r.result.errors > 0,
  );
  if (failed) {
    console.log('FAILED: not every measured create was a 201 with its booking, or bookings overlap');
    process.exitCode = 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
