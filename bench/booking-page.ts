/**
 * `npm run bench:booking-page` (issue 24, "Done when"): the booking page's time step, server-rendered
 * HTML of one week, beside a bare Fastify 5 route that answers the very bytes the page answered, in
 * the same run, alternating (page, bare, page, bare, …), so both see the same machine.
 *
 * World: bench/availability.ts's salon — one location, 10 staff, 2,000 bookings over the 31 days
 * of March 2027, written through the operator API — with the app's clock on the evening of
 * 2027-02-28, so the page's week (from today) is 2027-02-28..2027-03-06, full of bookings. The
 * step measured is the 60-minute service with `Any staff`: every staff member's week. Its address is
 * found as a guest finds it, by following the page's links (service, then `Any staff`).
 *
 * The server is the production configuration: buildApp with the logger off, listening on
 * 127.0.0.1:0, the rate limiter in process (Redis when REDIS_URL is set) at the production limits
 * with its refusals ignored. autocannon runs in a child process (bench/read-load-process.ts) at
 * concurrency 10. Prints req/s, p50, p99 (medians of the rounds), the ratio page req/s ÷ bare req/s,
 * the server's CPU per page (this process's CPU over a round ÷ its answers; PostgreSQL's own CPU is
 * not in it), one request at a time, the statements one page sends, and os.loadavg() before and
 * after; target: page p99 under 50 ms. Ten connections on one event loop wait for each other: the
 * p99 is about ten times a page's CPU, so the target asks for a page of about 4 ms or less.
 *
 * Databases: PGlite in a fresh data directory under the temp folder; PostgreSQL when DATABASE_URL
 * is set (in a schema of its own, dropped at the end).
 *
 * Environment: BENCH_DURATION (seconds per round, default 3), BENCH_ROUNDS (default 3),
 * BENCH_ONLY=pglite|postgres.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/store/db.ts';
import { migrate } from '../src/store/migrate.ts';
import { PgliteDb } from '../src/store/pglite-db.ts';
import { PostgresDb } from '../src/store/postgres-db.ts';
import { ADMIN_TOKEN, NOW, seed } from './availability.ts';
import { openRateLimits } from './never-refusing.ts';
import type { ReadLoadSpec } from './read-load-process.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const ONLY = process.env.BENCH_ONLY;
const TARGET_P99_MS = 50;
/** requests of the one-at-a-time figure, after 10 not counted */
const SEQUENTIAL = 100;

interface Round {
  /** this process's CPU (the server's; the load runs in a child) per answered request, ms */
  cpuMsPerRequest: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

function fmt(n: number, digits = 1): string {
  return n.toFixed(digits);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function loads(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
}

/** One autocannon run in a child process: it does not share the server's thread. */
async function load(url: string, path: string): Promise<Round> {
  const spec: ReadLoadSpec = { url, method: 'GET', path, connections: CONNECTIONS, duration: DURATION_S, headers: {} };
  const cpu = process.cpuUsage();
  const child = fork(fileURLToPath(new URL('./read-load-process.ts', import.meta.url)), { execArgv: ['--import', 'tsx'] });
  try {
    const r = await new Promise<autocannon.Result>((resolve, reject) => {
      child.once('message', (m) => resolve(m as autocannon.Result));
      child.once('exit', (code) => reject(new Error(`load process exited with ${code}`)));
      child.send(spec);
    });
    const used = process.cpuUsage(cpu);
    return {
      cpuMsPerRequest: (used.user + used.system) / 1000 / Math.max(1, r.requests.total),
      reqPerSec: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      requests: r.requests.total,
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
    };
  } finally {
    if (child.exitCode === null && child.pid !== undefined) child.kill('SIGTERM');
  }
}

const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"');
const text = (html: string) =>
  decode(html.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();

/** The href of the first link of `html` whose text starts with `name`, as a guest's click would follow. */
function linkTo(html: string, name: string, from: string): string {
  for (const m of html.matchAll(/<a\b[^>]*?\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)) {
    if (text(m[2]!).startsWith(name)) {
      const u = new URL(decode(m[1]!), from);
      return u.pathname + u.search;
    }
  }
  throw new Error(`no link "${name}" on ${from}`);
}

async function get(base: string, path: string): Promise<{ status: number; body: string; url: string; contentType: string }> {
  const res = await fetch(base + path);
  const u = new URL(res.url);
  return { status: res.status, body: await res.text(), url: u.pathname + u.search, contentType: res.headers.get('content-type') ?? '' };
}

interface TargetResult {
  name: string;
  path: string;
  bytes: number;
  times: number;
  sequential: { p50: number; p99: number };
  page: Round[];
  bare: Round[];
  loadBefore: string;
  loadAfter: string;
}

async function runTarget(name: 'pglite' | 'postgres', db: Db): Promise<TargetResult> {
  console.log(`\n=== ${name} ===`);
  await migrate(db);
  const rateLimitStore = await openRateLimits();
  const app = await buildApp({
    config: loadConfig({ ADMIN_TOKEN, WEBHOOK_WORKER: 'false', NOTIFICATION_WORKER: 'false', SEED_DEMO: 'false', LOG_LEVEL: 'warn' }),
    db,
    logger: false,
    clock: () => NOW,
    rateLimitStore,
  });
  try {
    const t0 = performance.now();
    const f = await seed(app);
    console.log(`world: 10 staff, 2,000 bookings over 31 days, written in ${fmt((performance.now() - t0) / 1000)} s`);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    // The guest's way to the time step: the location's page, the service, then Any staff.
    const services = await get(base, `/book/${f.businessSlug}/${f.locationSlug}`);
    if (services.status !== 200) throw new Error(`service step -> ${services.status} ${services.body.slice(0, 300)}`);
    const staff = await get(base, linkTo(services.body, 'Colouring', base + services.url));
    if (staff.status !== 200) throw new Error(`staff step -> ${staff.status}`);
    const timeStep = await get(base, linkTo(staff.body, 'Any staff', base + staff.url));
    if (timeStep.status !== 200) throw new Error(`time step -> ${timeStep.status}`);
    const path = timeStep.url;
    const times = (text(timeStep.body).match(/\b\d\d:\d\d\b/g) ?? []).length;
    const bytes = Buffer.byteLength(timeStep.body);
    console.log(`time step: GET ${path}, ${bytes} bytes of HTML, ${times} times shown`);
    if (times === 0) throw new Error('the time step shows no time: the week is not the seeded one');

    // The statements one time step sends to the database (a warm second request: what every guest costs).
    const statements: string[] = [];
    const query = db.query.bind(db);
    db.query = ((sql: string, params?: unknown[]) => {
      statements.push(sql);
      return query(sql, params as never);
    }) as Db['query'];
    await fetch(base + path).then((r) => r.arrayBuffer());
    db.query = query;
    console.log(`database statements per time step: ${statements.length}`);

    // One guest at a time: what a single time step costs, before any concurrency.
    const alone: number[] = [];
    for (let i = 0; i < SEQUENTIAL + 10; i++) {
      const t = performance.now();
      const r = await fetch(base + path);
      await r.arrayBuffer();
      if (i >= 10) alone.push(performance.now() - t);
    }
    alone.sort((a, b) => a - b);
    const sequential = { p50: alone[Math.floor(alone.length / 2)]!, p99: alone[Math.ceil(alone.length * 0.99) - 1]! };
    console.log(`one request at a time (${SEQUENTIAL}): p50 ${fmt(sequential.p50)} ms, p99 ${fmt(sequential.p99)} ms`);

    const bare = Fastify({ logger: false });
    const captured = Buffer.from(timeStep.body);
    bare.get(path.split('?')[0]!, async (_request, reply) => reply.header('content-type', timeStep.contentType).send(captured));
    await bare.listen({ host: '127.0.0.1', port: 0 });
    const bareBase = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;

    const loadBefore = loads();
    console.log(`load average before: ${loadBefore} (${cpus().length} cores)`);
    const page: Round[] = [];
    const plain: Round[] = [];
    try {
      // a warm-up round of both (JIT, caches, connections), not measured
      await load(base, path);
      await load(bareBase, path);
      for (let i = 0; i < ROUNDS; i++) {
        page.push(await load(base, path));
        plain.push(await load(bareBase, path));
        const s = page.at(-1)!;
        const p = plain.at(-1)!;
        console.log(
          `  round ${i + 1}: page ${fmt(s.reqPerSec)} req/s p50 ${s.p50} ms p99 ${s.p99} ms, CPU ${fmt(s.cpuMsPerRequest, 2)} ms/request` +
            `${s.non2xx || s.errors ? ` (${s.non2xx} non-2xx, ${s.errors} errors)` : ''}; bare ${fmt(p.reqPerSec)} req/s p99 ${p.p99} ms; load ${loads()}`,
        );
      }
    } finally {
      await bare.close();
    }
    const loadAfter = loads();
    console.log(`load average after: ${loadAfter}`);
    return { name, path, bytes, times, sequential, page, bare: plain, loadBefore, loadAfter };
  } finally {
    await app.close();
    await rateLimitStore.close();
    await db.close();
  }
}

function printTable(results: TargetResult[]): void {
  console.log(`\n## Booking page, time step — ${ROUNDS} rounds of ${DURATION_S} s each, alternating; medians; concurrency ${CONNECTIONS}`);
  console.log(`rate limits: ${process.env.REDIS_URL ? 'Redis' : 'in process'}; node ${process.version}; ${cpus().length} cores`);
  console.log(
    '| Database | page req/s | page p50 | page p99 | server CPU per page | bare req/s | bare p99 | ratio page/bare | p99 target < 50 ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const s = median(r.page.map((x) => x.reqPerSec));
    const b = median(r.bare.map((x) => x.reqPerSec));
    const p99 = median(r.page.map((x) => x.p99));
    console.log(
      `| ${r.name} | ${fmt(s, 0)} | ${median(r.page.map((x) => x.p50))} ms | ${p99} ms | ${fmt(median(r.page.map((x) => x.cpuMsPerRequest)), 2)} ms | ${fmt(b, 0)} | ${median(r.bare.map((x) => x.p99))} ms | ` +
        `${(s / b).toFixed(3)} | ${p99 < TARGET_P99_MS ? 'met' : 'MISS'} |`,
    );
  }
  for (const r of results) {
    console.log(
      `${r.name}: ${r.bytes} bytes, ${r.times} times; one at a time p50 ${fmt(r.sequential.p50)} ms, p99 ${fmt(r.sequential.p99)} ms; load average (1/5/15 min) before ${r.loadBefore}, after ${r.loadAfter}`,
    );
  }
  const failed = results.some((r) => r.page.some((x) => x.non2xx > 0 || x.errors > 0));
  if (failed) console.log('WARNING: some page rounds had non-2xx answers or errors; those figures are not valid');
}

async function main(): Promise<void> {
  console.log(
    `booking-page bench: NODE_ENV=${process.env.NODE_ENV ?? '(unset)'}, node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString()}`,
  );
  const results: TargetResult[] = [];
  if (ONLY !== 'postgres') {
    const dir = await mkdtemp(join(tmpdir(), 'bench-booking-page-'));
    try {
      results.push(await runTarget('pglite', await PgliteDb.open(join(dir, 'data'))));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl && ONLY !== 'pglite') {
    const schema = `bench_booking_page_${process.pid}`;
    const admin = PostgresDb.open(databaseUrl, 1);
    await admin.exec(`CREATE SCHEMA ${schema}`);
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema},public`);
    try {
      results.push(await runTarget('postgres', PostgresDb.open(url.toString(), 20)));
    } finally {
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    }
  } else if (ONLY !== 'pglite') {
    console.log('\n=== postgres === skipped: DATABASE_URL is not set');
  }
  printTable(results);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
