/**
 * `npm run bench:availability`: POST /v1/availability/search end to end.
 *
 * Data: one location (Europe/Budapest, 15-minute grid), 10 staff working Mon-Sat 09:00-18:00,
 * 2,000 confirmed bookings spread over March 2027, and a 31-day search (2027-03-01..31, which
 * contains the spring-forward Sunday) across all staff for a 60-minute service.
 *
 * Reports, on PGlite and (when DATABASE_URL is set) PostgreSQL:
 *  (a) the pure engine per search (computeSlots on the very rows the endpoint loads), mean/p99;
 *  (b) the endpoint's p50/p99 latency and requests/s with autocannon (10 connections, fixed
 *      duration, load generated in a worker thread), beside a bare Fastify route on 127.0.0.1
 *      that returns the same JSON body, and the ratio endpoint req/s ÷ bare req/s;
 *  (c) a breakdown of one request: key lookup, scope, service, staff/bookings load, engine,
 *      response serialisation.
 *
 * Environment: BENCH_DURATION (seconds per autocannon run, default 10), DATABASE_URL (optional).
 * On PostgreSQL the data lives in a schema of its own (bench_availability_<pid>), dropped at the end.
 */
import { cpus, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { DAY_MS, MINUTE_MS, parseIsoDate } from '../src/domain/time/calendar.ts';
import { computeSlots } from '../src/domain/availability/engine.ts';
import { searchAvailability } from '../src/use-cases/availability/search.ts';
import type { EngineInput } from '../src/domain/availability/types.ts';
import { hashSecret } from '../src/domain/api-key-secret.ts';
import type { App } from '../src/http/context.ts';
import { findUsableKey } from '../src/store/api-keys.ts';
import { loadEngineStaff } from '../src/store/availability.ts';
import type { Db } from '../src/store/db.ts';
import { findLocationBySlug } from '../src/store/locations.ts';
import { migrate } from '../src/store/migrate.ts';
import { PgliteDb } from '../src/store/pglite-db.ts';
import { PostgresDb } from '../src/store/postgres-db.ts';
import { findServiceById } from '../src/store/services.ts';
import { GenerousRateLimitStore } from '../test/helpers/rate-limit.ts';
import { mulberry32 } from './seeded-random.ts';

export const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 10;
const STAFF = 10;
const BOOKINGS = 2000;
const FROM = '2027-03-01'; // a Monday
const TO = '2027-03-31';
/** The app's clock: the evening before the month, so the whole month is bookable. */
export const NOW = new Date('2027-02-28T18:00:00.000Z');
const ENGINE_WARMUP = 100;
const ENGINE_RUNS = 500;

const TARGET_ENGINE_MS = 5;
const TARGET_RATIO = 0.3;
const TARGET_P99_MS = 50;

function hhmm(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

function isoDate(epochDay: number): string {
  return new Date(epochDay * DAY_MS).toISOString().slice(0, 10);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))]!;
}

function stats(times: number[]): { mean: number; p50: number; p99: number } {
  const s = [...times].sort((a, b) => a - b);
  return { mean: s.reduce((a, b) => a + b, 0) / s.length, p50: percentile(s, 0.5), p99: percentile(s, 0.99) };
}

async function adminCall(app: App, method: 'POST' | 'PATCH', url: string, payload: unknown): Promise<any> {
  const r = await app.inject({
    method,
    url: `/admin/v1${url}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: payload as object,
  });
  if (r.statusCode >= 300) throw new Error(`${method} ${url} -> ${r.statusCode} ${r.body}`);
  return JSON.parse(r.body).data;
}

interface Fixture {
  businessSlug: string;
  businessId: string;
  locationSlug: string;
  serviceId: string;
  keySecret: string;
  body: string;
}

/** Business, location, two services, 10 staff and 2,000 non-overlapping bookings in March 2027. */
export async function seed(app: App): Promise<Fixture> {
  const suffix = `${process.pid}-${Date.now().toString(36)}`;
  const slug = `bench-${suffix}`;
  const { business } = await adminCall(app, 'POST', '/businesses', {
    slug,
    name: 'Bench salon',
    currency: 'HUF',
    subscription: { plan: 'business', status: 'active' },
  });
  const { location } = await adminCall(app, 'POST', `/businesses/${slug}/locations`, {
    slug: `main-${suffix}`,
    name: 'Main',
    timezone: 'Europe/Budapest',
    address: { city: 'Budapest', street: 'Váci utca 1.', zip: '1052' },
    slotIntervalMinutes: 15,
  });
  const service = (
    await adminCall(app, 'POST', `/businesses/${slug}/services`, {
      locationSlug: location.slug,
      name: 'Colouring',
      durationMinutes: 60,
      priceType: 'fixed',
      price: { amount: 12000, currency: 'HUF' },
      requestAcceptancePolicy: 'automatic',
      bufferAfterMinutes: 10,
    })
  ).service;
  const short = (
    await adminCall(app, 'POST', `/businesses/${slug}/services`, {
      locationSlug: location.slug,
      name: 'Haircut',
      durationMinutes: 30,
      priceType: 'fixed',
      price: { amount: 5000, currency: 'HUF' },
      requestAcceptancePolicy: 'automatic',
    })
  ).service;
  const workingHours = [1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '09:00', end: '18:00' }));
  const staffIds: string[] = [];
  for (let i = 0; i < STAFF; i++) {
    const { staff } = await adminCall(app, 'POST', `/businesses/${slug}/staff`, {
      locationSlug: location.slug,
      name: `Stylist ${i + 1}`,
      serviceIds: [service.id, short.id],
      workingHours,
    });
    staffIds.push(staff.id);
  }
  const { apiKey } = await adminCall(app, 'POST', `/businesses/${slug}/api-keys`, {
    name: 'bench',
    type: 'integration',
    kind: 'owner',
    capabilities: ['availability.read'],
    tier: 'elevated',
  });

  // 2,000 bookings (30 or 60 minutes) on the 15-minute grid, never overlapping for one staff member.
  const random = mulberry32(2027);
  const first = parseIsoDate(FROM);
  const workDays: number[] = [];
  for (let d = first; d <= parseIsoDate(TO); d++) if (new Date(d * DAY_MS).getUTCDay() !== 0) workDays.push(d);
  const taken = new Map<string, Array<[number, number]>>();
  const plan: Array<{ staffId: string; date: string; startTime: string; serviceId: string }> = [];
  while (plan.length < BOOKINGS) {
    const staffId = staffIds[Math.floor(random() * STAFF)]!;
    const day = workDays[Math.floor(random() * workDays.length)]!;
    const long = random() < 0.3;
    const duration = long ? 70 : 30; // the 60-minute service holds 10 more minutes of buffer
    const start = 9 * 60 + Math.floor(random() * ((9 * 60 - duration) / 15 + 1)) * 15;
    const key = `${staffId} ${day}`;
    const list = taken.get(key) ?? [];
    if (list.some(([s, e]) => start < e && s < start + duration)) continue;
    list.push([start, start + duration]);
    taken.set(key, list);
    plan.push({ staffId, date: isoDate(day), startTime: hhmm(start), serviceId: long ? service.id : short.id });
  }
  // Manual bookings through the operator API (same validation and insert path as production),
  // a few at a time so PostgreSQL can overlap them; PGlite serialises them anyway.
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const b = plan[next++]!;
      await adminCall(app, 'POST', `/businesses/${slug}/bookings`, {
        locationSlug: location.slug,
        serviceId: b.serviceId,
        staffId: b.staffId,
        date: b.date,
        startTime: b.startTime,
        guest: { name: 'Bench Guest', phone: '+36301234567' },
      });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));

  const body = JSON.stringify({
    salonSlug: slug,
    locationSlug: location.slug,
    serviceId: service.id,
    dateRange: { from: FROM, to: TO },
  });
  return {
    businessSlug: slug,
    businessId: business.id,
    locationSlug: location.slug,
    serviceId: service.id,
    keySecret: apiKey.secret,
    body,
  };
}

/** (a) The engine alone, on exactly the input the endpoint builds. */
async function engineInput(db: Db, f: Fixture): Promise<EngineInput> {
  const location = (await findLocationBySlug(db, f.businessId, f.locationSlug))!;
  const service = (await findServiceById(db, f.serviceId))!;
  const firstDay = parseIsoDate(FROM);
  const lastDay = parseIsoDate(TO);
  const margin = DAY_MS + (service.bufferBeforeMinutes + service.bufferAfterMinutes + service.durationMinutes) * MINUTE_MS;
  const staff = await loadEngineStaff(
    db,
    location.id,
    service.id,
    undefined,
    new Date(firstDay * DAY_MS - margin),
    new Date((lastDay + 1) * DAY_MS + margin),
  );
  return {
    timezone: location.timezone,
    slotIntervalMinutes: location.slotIntervalMinutes,
    minNoticeMinutes: location.minNoticeMinutes,
    horizonDays: location.horizonDays,
    now: NOW.getTime(),
    from: FROM,
    to: TO,
    service: {
      id: service.id,
      durationMinutes: service.durationMinutes,
      bufferBeforeMinutes: service.bufferBeforeMinutes,
      bufferAfterMinutes: service.bufferAfterMinutes,
    },
    staff,
    limit: 500,
  };
}

function benchEngine(input: EngineInput) {
  let checksum = 0;
  for (let i = 0; i < ENGINE_WARMUP; i++) checksum += computeSlots(input).total;
  const times: number[] = [];
  for (let i = 0; i < ENGINE_RUNS; i++) {
    const t0 = performance.now();
    checksum += computeSlots(input).total;
    times.push(performance.now() - t0);
  }
  const r = computeSlots(input);
  const busy = input.staff.reduce((n, s) => n + s.busy.length, 0);
  return { ...stats(times), total: r.total, returned: r.slots.length, busy, checksum };
}

/** (c) Where one request's time goes: each step timed on its own, sequentially, many times. */
async function breakdown(app: App, db: Db, f: Fixture) {
  const runs = 200;
  const t = {
    /** auth hook: the API key with its business and plan */
    keyLookup: [] as number[],
    /** scope: the location by slug */
    location: [] as number[],
    /** searchAvailability: the service row */
    service: [] as number[],
    /** searchAvailability: staff, hours, time off and held ranges (one query) */
    staffLoad: [] as number[],
    /** searchAvailability as a whole: service + staffLoad + engine + mapping */
    search: [] as number[],
    /** JSON.stringify of the response (Fastify's compiled serializer does the real work) */
    stringify: [] as number[],
    /** the whole request through app.inject (no sockets) */
    inject: [] as number[],
  };
  const hash = hashSecret(f.keySecret);
  const location = (await findLocationBySlug(db, f.businessId, f.locationSlug))!;
  const service = (await findServiceById(db, f.serviceId))!;
  const firstDay = parseIsoDate(FROM);
  const lastDay = parseIsoDate(TO);
  const margin = DAY_MS + (service.bufferBeforeMinutes + service.bufferAfterMinutes + service.durationMinutes) * MINUTE_MS;
  const res = await app.inject({
    method: 'POST',
    url: '/v1/availability/search',
    headers: { authorization: `Bearer ${f.keySecret}`, 'content-type': 'application/json' },
    payload: f.body,
  });
  const parsed = JSON.parse(res.body);
  for (let i = 0; i < runs + 20; i++) {
    const record = i >= 20;
    let t0 = performance.now();
    await findUsableKey(db, hash);
    if (record) t.keyLookup.push(performance.now() - t0);
    t0 = performance.now();
    await findLocationBySlug(db, f.businessId, f.locationSlug);
    if (record) t.location.push(performance.now() - t0);
    t0 = performance.now();
    await findServiceById(db, f.serviceId);
    if (record) t.service.push(performance.now() - t0);
    t0 = performance.now();
    await loadEngineStaff(
      db,
      location.id,
      f.serviceId,
      undefined,
      new Date(firstDay * DAY_MS - margin),
      new Date((lastDay + 1) * DAY_MS + margin),
    );
    if (record) t.staffLoad.push(performance.now() - t0);
    t0 = performance.now();
    await searchAvailability(db, { location, serviceId: f.serviceId, from: FROM, to: TO, now: NOW, secret: Buffer.alloc(32) });
    if (record) t.search.push(performance.now() - t0);
    t0 = performance.now();
    JSON.stringify(parsed);
    if (record) t.stringify.push(performance.now() - t0);
    t0 = performance.now();
    await app.inject({
      method: 'POST',
      url: '/v1/availability/search',
      headers: { authorization: `Bearer ${f.keySecret}`, 'content-type': 'application/json' },
      payload: f.body,
    });
    if (record) t.inject.push(performance.now() - t0);
  }
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, stats(v)])) as Record<keyof typeof t, ReturnType<typeof stats>>;
}

interface LoadResult {
  /** 1-minute load average at the end of the run: other work on the machine skews the figures */
  load: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

async function load(url: string, secret: string, body: string): Promise<LoadResult> {
  const r = await autocannon({
    url,
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body,
    connections: CONNECTIONS,
    duration: DURATION_S,
    // The load generator runs in its own thread so it does not share the server's event loop.
    workers: 1,
  });
  return {
    load: loadavg()[0]!,
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

/** A plain Fastify instance answering the same path with a pre-rendered copy of a real response. */
async function bareServer(responseBody: string) {
  const bare = Fastify({ logger: false });
  bare.post('/v1/availability/search', async (_request, reply) => {
    void reply.header('content-type', 'application/json; charset=utf-8');
    return reply.send(responseBody);
  });
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const address = bare.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { bare, url: `http://127.0.0.1:${address.port}/v1/availability/search` };
}

function fmt(n: number, digits = 2): string {
  return n.toFixed(digits);
}

async function runTarget(name: 'pglite' | 'postgres', open: () => Promise<Db>): Promise<void> {
  console.log(`\n=== ${name} ===`);
  const db = await open();
  // The limiter runs on every request (its cost is part of the figure) with limits far above the load.
  const rateLimitStore = new GenerousRateLimitStore();
  const app = await buildApp({
    config: loadConfig({ ADMIN_TOKEN, WEBHOOK_WORKER: 'false', NOTIFICATION_WORKER: 'false' }),
    db,
    logger: false,
    clock: () => NOW,
    rateLimitStore,
  });
  try {
    const t0 = performance.now();
    const f = await seed(app);
    console.log(`setup: ${STAFF} staff, ${BOOKINGS} bookings in ${fmt((performance.now() - t0) / 1000, 1)} s`);

    const input = await engineInput(db, f);
    const e = benchEngine(input);
    console.log(
      `(a) engine computeSlots, 31 days x ${STAFF} staff, ${e.busy} busy ranges: mean ${fmt(e.mean, 3)} ms, p99 ${fmt(e.p99, 3)} ms ` +
        `(${e.total} slots, ${e.returned} returned); target < ${TARGET_ENGINE_MS} ms: mean ${e.mean < TARGET_ENGINE_MS ? 'OK' : 'MISS'}, ` +
        `p99 ${e.p99 < TARGET_ENGINE_MS ? 'OK' : 'MISS'}`,
    );

    const b = await breakdown(app, db, f);
    console.log('(c) one request, sequential, mean / p99 ms:');
    for (const [k, v] of Object.entries(b)) console.log(`    ${k.padEnd(10)} ${fmt(v.mean, 3).padStart(8)} / ${fmt(v.p99, 3)}`);

    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const url = `http://127.0.0.1:${address.port}/v1/availability/search`;
    const sample = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.keySecret}`, 'content-type': 'application/json' },
      body: f.body,
    });
    const sampleBody = await sample.text();
    if (sample.status !== 200) throw new Error(`sample request -> ${sample.status} ${sampleBody}`);
    const parsed = JSON.parse(sampleBody);
    console.log(`response: ${parsed.data.slots.length} slots, truncated ${parsed.meta.truncated === true}, ${sampleBody.length} bytes`);

    const endpoint = await load(url, f.keySecret, f.body);
    const { bare, url: bareUrl } = await bareServer(sampleBody);
    let plain: LoadResult;
    try {
      plain = await load(bareUrl, f.keySecret, f.body);
    } finally {
      await bare.close();
    }
    const ratio = endpoint.reqPerSec / plain.reqPerSec;
    const line = (label: string, r: LoadResult) =>
      `    ${label.padEnd(9)} ${fmt(r.reqPerSec, 1).padStart(8)} req/s  p50 ${fmt(r.p50, 1)} ms  p99 ${fmt(r.p99, 1)} ms  ` +
      `(${r.requests} requests${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}${r.errors ? `, ${r.errors} errors` : ''}; load avg ${fmt(r.load, 1)})`;
    console.log(`(b) autocannon, ${CONNECTIONS} connections, ${DURATION_S} s each:`);
    console.log(line('endpoint', endpoint));
    console.log(line('bare', plain));
    console.log(
      `    ratio endpoint/bare ${fmt(ratio * 100, 1)} % ${ratio >= TARGET_RATIO ? 'OK' : 'MISS'} (target >= ${TARGET_RATIO * 100} %); ` +
        `endpoint p99 ${endpoint.p99 < TARGET_P99_MS ? 'OK' : 'MISS'} (target < ${TARGET_P99_MS} ms)`,
    );
    if (endpoint.non2xx > 0 || endpoint.errors > 0)
      console.log('    WARNING: the endpoint run had failed requests; its figures are not valid');
  } finally {
    await app.close();
    await rateLimitStore.close();
    await db.close();
  }
}

async function main(): Promise<void> {
  console.log(`availability bench: node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString()}`);
  await runTarget('pglite', async () => {
    const db = await PgliteDb.open('memory://');
    await migrate(db);
    return db;
  });
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    // A schema of its own, dropped afterwards: every run starts from the same empty tables and
    // leaves nothing behind in the shared database.
    const schema = `bench_availability_${process.pid}`;
    const admin = PostgresDb.open(databaseUrl, 1);
    await admin.exec(`CREATE SCHEMA ${schema}`);
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema},public`);
    try {
      await runTarget('postgres', async () => {
        const db = PostgresDb.open(url.toString(), 20);
        await migrate(db);
        return db;
      });
    } finally {
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    }
  } else {
    console.log('\n=== postgres === skipped: DATABASE_URL is not set');
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
