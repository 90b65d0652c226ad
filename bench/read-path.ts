/**
 * `npm run bench:read-path` (issue 16, "How it is measured"): the read paths of the real server
 * beside a bare Fastify 5 route that answers the very bytes the server answered, in the same run,
 * alternating (server, bare, server, bare, …), so both see the same machine.
 *
 * World: bench/availability.ts's salon — one location, 10 staff, 2,000 bookings over the 31 days
 * of March 2027, written through the operator API. Routes, each at concurrency 10:
 *   - GET /v1/services
 *   - POST /v1/availability/search, 1 day, one staff
 *   - POST /v1/availability/search, 31 days, 10 staff
 * The server is the production configuration: buildApp with the logger off, listening on
 * 127.0.0.1:0, the rate limiter in process (Redis when REDIS_URL is set) at the production limits
 * with its refusals ignored (NeverRefusingRateLimitStore: the store's cost is a saturated key's). autocannon runs in a child
 * process (bench/read-load-process.ts). Prints req/s, p99 and ratio = server req/s ÷ bare req/s
 * (median of the rounds), with os.loadavg() before and after.
 *
 * Databases: PGlite in a fresh data directory under the temp folder; PostgreSQL when DATABASE_URL
 * is set (in a schema of its own, dropped at the end).
 *
 * Environment: BENCH_DURATION (seconds per round, default 5), BENCH_ROUNDS (default 3),
 * BENCH_CPU_PROFILE=<dir> (one more server round per route under the inspector's CPU profiler, not
 * in the table: writes <dir>/<db>-<route>.cpuprofile and prints the top 15 functions by self time),
 * BENCH_ONLY=pglite|postgres.
 */
import { fork } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
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
import { ADMIN_TOKEN, NOW, seed } from './availability.ts';
import { openRateLimits } from './never-refusing.ts';
import type { ReadLoadSpec } from './read-load-process.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE;
const ONLY = process.env.BENCH_ONLY;
/** issue 16's targets, ratio = server req/s ÷ bare req/s */
const TARGETS: Record<string, number> = { services: 0.35, 'availability-1d': 0.2, 'availability-31d': 0.1 };

interface Route {
  name: string;
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

interface Round {
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
async function load(base: string, route: Route, headers: Record<string, string>): Promise<Round> {
  const spec: ReadLoadSpec = {
    url: base,
    method: route.method,
    path: route.path,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers,
    ...(route.body === undefined ? {} : { body: route.body }),
  };
  const child = fork(fileURLToPath(new URL('./read-load-process.ts', import.meta.url)), { execArgv: ['--import', 'tsx'] });
  try {
    const r = await new Promise<autocannon.Result>((resolve, reject) => {
      child.once('message', (m) => resolve(m as autocannon.Result));
      child.once('exit', (code) => reject(new Error(`load process exited with ${code}`)));
      child.send(spec);
    });
    return {
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

/** A bare Fastify 5 instance answering each route's path with its captured bytes and content type. */
async function bareServer(captured: Map<Route, { body: Buffer; contentType: string }>) {
  const bare = Fastify({ logger: false });
  for (const [route, { body, contentType }] of captured) {
    const handler = async (_request: unknown, reply: import('fastify').FastifyReply) =>
      reply.header('content-type', contentType).send(body);
    // the route's own path (the query string is not part of it); the two availability routes share one
    if (bare.hasRoute({ method: route.method, url: route.path.split('?')[0]! })) continue;
    bare.route({ method: route.method, url: route.path.split('?')[0]!, handler });
  }
  await bare.listen({ host: '127.0.0.1', port: 0 });
  return bare;
}

/** Self time by where the code lives: the application, PGlite (its JS and its WebAssembly), Fastify, Node. */
export function selfTimeByArea(profile: any): Array<{ area: string; pct: number }> {
  const byId = new Map<number, any>();
  for (const node of profile.nodes) byId.set(node.id, node);
  const areas = new Map<string, number>();
  const samples: number[] = profile.samples ?? [];
  const deltas: number[] = profile.timeDeltas ?? [];
  let total = 0;
  for (let i = 1; i < samples.length - 1; i++) {
    const cf = byId.get(samples[i]!)?.callFrame ?? {};
    const url = String(cf.url ?? '');
    const fn = String(cf.functionName ?? '');
    const area =
      fn === '(idle)'
        ? 'idle'
        : fn === '(garbage collector)'
          ? 'garbage collector'
          : fn === '(program)'
            ? 'program (V8/native)'
            : url.startsWith('wasm://')
              ? 'PGlite WebAssembly'
              : url.includes('@electric-sql/pglite')
                ? 'PGlite JS'
                : url.includes('/node_modules/')
                  ? `node_modules/${url
                      .split('/node_modules/')
                      .pop()!
                      .split('/')[0]!
                      .replace(/^@.*$/, (m) => m)}`
                  : url.includes('/src/')
                    ? `src/${url.split('/src/').pop()!.split('/')[0]}`
                    : url.startsWith('node:')
                      ? 'node: internals'
                      : url === ''
                        ? 'native (no script)'
                        : 'other';
    areas.set(area, (areas.get(area) ?? 0) + (deltas[i] ?? 0));
    total += deltas[i] ?? 0;
  }
  return [...areas.entries()].sort((a, b) => b[1] - a[1]).map(([area, us]) => ({ area, pct: total ? (100 * us) / total : 0 }));
}

/** Self time per function (name + url:line) of a V8 CPU profile, the top `n`. */
export function topSelfTime(profile: any, n = 15): Array<{ fn: string; ms: number; pct: number }> {
  const byId = new Map<number, any>();
  for (const node of profile.nodes) byId.set(node.id, node);
  const self = new Map<number, number>();
  const samples: number[] = profile.samples ?? [];
  const deltas: number[] = profile.timeDeltas ?? [];
  // the first and last samples carry the profiler's own start and stop (the inspector's dispatch)
  for (let i = 1; i < samples.length - 1; i++) self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + (deltas[i] ?? 0));
  const byFn = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const cf = byId.get(id)?.callFrame ?? {};
    const url = String(cf.url ?? '')
      .replace(/^file:\/\//, '')
      .replace(/^.*\/node_modules\//, '');
    const where = url ? `${url.replace(`${process.cwd()}/`, '')}:${(cf.lineNumber ?? 0) + 1}` : '';
    const key = `${cf.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us);
    total += us;
  }
  return [...byFn.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([fn, us]) => ({ fn, ms: us / 1000, pct: total ? (100 * us) / total : 0 }));
}

async function adminPost(app: App, url: string, payload: object): Promise<any> {
  const r = await app.inject({ method: 'POST', url: `/admin/v1${url}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload });
  if (r.statusCode >= 300) throw new Error(`POST ${url} -> ${r.statusCode} ${r.body}`);
  return JSON.parse(r.body).data;
}

interface TargetResult {
  name: string;
  rows: Array<{ route: Route; server: Round[]; bare: Round[] }>;
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
  console.log(`caches: ${app.ctx.caches.mode}`);
  try {
    const t0 = performance.now();
    const f = await seed(app);
    console.log(`world: 10 staff, 2,000 bookings over 31 days, written in ${fmt((performance.now() - t0) / 1000)} s`);
    const { apiKey } = await adminPost(app, `/businesses/${f.businessSlug}/api-keys`, {
      name: 'read-bench',
      type: 'integration',
      kind: 'owner',
      capabilities: ['services.read', 'staff.read', 'availability.read'],
      tier: 'elevated',
    });
    const one = await app.inject({
      method: 'GET',
      url: `/v1/staff?salonSlug=${f.businessSlug}&locationSlug=${f.locationSlug}`,
      headers: { authorization: `Bearer ${apiKey.secret}` },
    });
    const search = JSON.parse(f.body);
    const staffId: string | undefined = one.statusCode === 200 ? JSON.parse(one.body).data.staff?.[0]?.id : undefined;
    const routes: Route[] = [
      {
        name: 'services',
        label: '`GET /v1/services`',
        method: 'GET',
        path: `/v1/services?salonSlug=${f.businessSlug}&locationSlug=${f.locationSlug}`,
      },
      {
        name: 'availability-1d',
        label: 'availability, 1 day, one staff',
        method: 'POST',
        path: '/v1/availability/search',
        body: JSON.stringify({ ...search, dateRange: { from: '2027-03-02', to: '2027-03-02' }, ...(staffId ? { staffId } : {}) }),
      },
      {
        name: 'availability-31d',
        label: 'availability, 31 days, 10 staff, 2,000 bookings',
        method: 'POST',
        path: '/v1/availability/search',
        body: f.body,
      },
    ];
    if (!staffId) throw new Error(`could not list the staff: ${one.statusCode} ${one.body}`);
    const headers = { authorization: `Bearer ${apiKey.secret}`, 'content-type': 'application/json' };

    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // Capture each route's real answer once; the bare server answers exactly these bytes.
    const captured = new Map<Route, { body: Buffer; contentType: string }>();
    for (const route of routes) {
      const res = await fetch(base + route.path, { method: route.method, headers, ...(route.body ? { body: route.body } : {}) });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) throw new Error(`${route.name} -> ${res.status} ${body}`);
      captured.set(route, { body, contentType: res.headers.get('content-type') ?? 'application/json; charset=utf-8' });
      console.log(`${route.name}: ${body.length} bytes`);
    }
    // The two availability routes share a path: the bare server runs one instance per route.
    const bares = new Map<Route, Awaited<ReturnType<typeof bareServer>>>();
    for (const route of routes) bares.set(route, await bareServer(new Map([[route, captured.get(route)!]])));

    const loadBefore = loads();
    console.log(`load average before: ${loadBefore} (${cpus().length} cores)`);
    const rows: TargetResult['rows'] = [];
    try {
      for (const route of routes) {
        const b = bares.get(route)!;
        const bareBase = `http://127.0.0.1:${(b.server.address() as AddressInfo).port}`;
        const server: Round[] = [];
        const plain: Round[] = [];
        // a warm-up round of both (JIT, caches, connections), not measured
        await load(base, route, headers);
        await load(bareBase, route, headers);
        for (let i = 0; i < ROUNDS; i++) {
          server.push(await load(base, route, headers));
          plain.push(await load(bareBase, route, headers));
          const s = server.at(-1)!;
          const p = plain.at(-1)!;
          console.log(
            `  ${route.name} round ${i + 1}: server ${fmt(s.reqPerSec)} req/s p99 ${s.p99} ms` +
              `${s.non2xx || s.errors ? ` (${s.non2xx} non-2xx, ${s.errors} errors)` : ''}; bare ${fmt(p.reqPerSec)} req/s p99 ${p.p99} ms; load ${loads()}`,
          );
        }
        rows.push({ route, server, bare: plain });
        if (PROFILE_DIR) await profileRound(name, route, base, headers);
      }
    } finally {
      for (const b of bares.values()) await b.close();
    }
    const loadAfter = loads();
    console.log(`load average after: ${loadAfter}`);
    return { name, rows, loadBefore, loadAfter };
  } finally {
    await app.close();
    await rateLimitStore.close();
    await db.close();
  }
}

/** One more server round under the CPU profiler (not in the table: the profiler slows it down). */
async function profileRound(target: string, route: Route, base: string, headers: Record<string, string>): Promise<void> {
  const dir = PROFILE_DIR!;
  await mkdir(dir, { recursive: true });
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const r = await load(base, route, headers);
    const { profile } = await session.post('Profiler.stop');
    const file = join(dir, `${target}-${route.name}.cpuprofile`);
    await writeFile(file, JSON.stringify(profile));
    console.log(`  profile (${fmt(r.reqPerSec)} req/s under the profiler): ${file}; top 15 self time:`);
    for (const t of topSelfTime(profile)) console.log(`    ${fmt(t.pct).padStart(5)} %  ${fmt(t.ms, 0).padStart(6)} ms  ${t.fn}`);
    console.log(
      `  by area: ${selfTimeByArea(profile)
        .slice(0, 12)
        .map((a) => `${a.area} ${fmt(a.pct)} %`)
        .join(', ')}`,
    );
  } finally {
    session.disconnect();
  }
}

function printTable(results: TargetResult[]): void {
  console.log(`\n## Read paths — ${ROUNDS} rounds of ${DURATION_S} s each, alternating; medians; concurrency ${CONNECTIONS}`);
  console.log(`rate limits: ${process.env.REDIS_URL ? 'Redis' : 'in process'}; node ${process.version}; ${cpus().length} cores`);
  const header = `| Figure | ${results.map((r) => `${r.name} server | ${r.name} bare | ${r.name} ratio`).join(' | ')} | Target |`;
  console.log(header);
  console.log(`|---|${results.map(() => '---|---|---|').join('')}---|`);
  const names = results[0]?.rows.map((r) => r.route) ?? [];
  for (const route of names) {
    const cells = results.map((res) => {
      const row = res.rows.find((x) => x.route.name === route.name)!;
      const s = median(row.server.map((r) => r.reqPerSec));
      const b = median(row.bare.map((r) => r.reqPerSec));
      const ratio = s / b;
      const ok = ratio >= TARGETS[route.name]! ? 'met' : 'MISS';
      return `${fmt(s, 0)} req/s, p99 ${median(row.server.map((r) => r.p99))} ms | ${fmt(b, 0)} req/s, p99 ${median(row.bare.map((r) => r.p99))} ms | ${ratio.toFixed(3)} (${ok})`;
    });
    console.log(`| ${route.label} | ${cells.join(' | ')} | ratio ≥ ${TARGETS[route.name]} |`);
  }
  for (const r of results) console.log(`load average (1/5/15 min) on ${r.name}: before ${r.loadBefore}, after ${r.loadAfter}`);
  const failed = results.some((r) => r.rows.some((row) => row.server.some((x) => x.non2xx > 0 || x.errors > 0)));
  if (failed) console.log('WARNING: some server rounds had non-2xx answers or errors; those figures are not valid');
}

async function main(): Promise<void> {
  console.log(`read-path bench: node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString()}`);
  const results: TargetResult[] = [];
  if (ONLY !== 'postgres') {
    const dir = await mkdtemp(join(tmpdir(), 'bench-read-pglite-'));
    try {
      results.push(await runTarget('pglite', await PgliteDb.open(join(dir, 'data'))));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl && ONLY !== 'pglite') {
    const schema = `bench_read_${process.pid}`;
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
