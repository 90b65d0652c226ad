/**
 * Webhook latency: time from a booking's commit to the first byte of its webhook at a receiver,
 * with the delivery worker inside the API process (WEBHOOK_WORKER=true). The real app listens on
 * 127.0.0.1; a salon with a manually accepted service (one event, `booking.requested`, per
 * booking) and a webhook pointing at a local node:http receiver that answers 200 at once;
 * BENCH_BOOKINGS (1,000) creates over HTTP at BENCH_CONNECTIONS (4) concurrent clients.
 *
 * The commit time is taken in the process, right after the create transaction's COMMIT returns
 * (a thin Db wrapper notes the delivery ids the transaction wrote); the receiver notes when the
 * request's headers arrive. The create response is not used as the start: the webhook often
 * arrives before it.
 *
 *   npm run bench:webhooks                                  # embedded PGlite (in memory)
 *   DATABASE_URL=postgres://…/booking_bench npm run bench:webhooks   # PostgreSQL too
 *
 * On PostgreSQL use a throw-away database: the worker delivers whatever is due in it.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { encryptSigningSecret, newSigningSecret } from '../src/domain/webhooks/signing-secret.ts';
import type { Db, Queryable } from '../src/store/db.ts';
import { migrate } from '../src/store/migrate.ts';
import { PgliteDb } from '../src/store/pglite-db.ts';
import { PostgresDb } from '../src/store/postgres-db.ts';
import { startWebhookWorker } from '../src/webhooks/worker.ts';
import { GenerousRateLimitStore } from '../test/helpers/rate-limit.ts';
import { createBenchSalon } from './salon.ts';

const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const STAFF = 10;
const SLOT_TIMES = Array.from({ length: 16 }, (_, i) => `${String(9 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);
const TIME_ZONE = 'Europe/Budapest';
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const now = () => performance.timeOrigin + performance.now();

/** The delivery ids an event-writing statement carries (its events' parameters are parallel arrays). */
function deliveryIds(sql: string, params: readonly unknown[] | undefined): string[] {
  if (!params || !sql.includes('INSERT INTO booking_events')) return [];
  const ids: string[] = [];
  for (const p of params) if (Array.isArray(p) && p.every((v) => /^[0-9a-f]{32}$/.test(String(v)))) ids.push(...p.map(String));
  return ids;
}

/**
 * Notes, per delivery id, when the write that queued it had committed: a statement outside a
 * transaction (a create's single write) when it returns, one inside a transaction at its COMMIT.
 */
class CommitClock implements Db {
  readonly commits = new Map<string, number>();
  constructor(private readonly inner: Db) {}
  get kind() {
    return this.inner.kind;
  }
  async query<T>(sql: string, params?: readonly unknown[]) {
    const r = await this.inner.query<T>(sql, params);
    const at = now();
    for (const id of deliveryIds(sql, params)) this.commits.set(id, at);
    return r;
  }
  exec(sql: string) {
    return this.inner.exec(sql);
  }
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const ids: string[] = [];
    const result = await this.inner.transaction((tx) =>
      fn({
        exec: (sql) => tx.exec(sql),
        query: (sql, params) => {
          ids.push(...deliveryIds(sql, params));
          return tx.query(sql, params);
        },
      }),
    );
    const at = now();
    for (const id of ids) this.commits.set(id, at);
    return result;
  }
  listen(channel: string, onNotify: (payload: string) => void) {
    return this.inner.listen(channel, onNotify);
  }
  notify(channel: string, payload: string) {
    return this.inner.notify(channel, payload);
  }
  onVersionBumps(listener: Parameters<Db['onVersionBumps']>[0]) {
    return this.inner.onVersionBumps(listener);
  }
  close() {
    return this.inner.close();
  }
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function run(name: string, raw: Db): Promise<boolean> {
  await migrate(raw);
  const db = new CommitClock(raw);
  const config = loadConfig({
    ADMIN_TOKEN,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    WEBHOOK_WORKER: 'true',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...(process.env.DB_POOL_MAX ? { DB_POOL_MAX: process.env.DB_POOL_MAX } : {}),
  });
  // The limiter runs on every request with limits far above the load.
  const rateLimitStore = new GenerousRateLimitStore();
  const app = await buildApp({ config, db, logger: false, rateLimitStore });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  // As main.ts does with WEBHOOK_WORKER=true: the worker in the API process, on the same database.
  const worker = await startWebhookWorker({ db: raw, config });

  const received = new Map<string, number>();
  let waiting: (() => void) | undefined;
  const receiver = createServer((req, res) => {
    const at = now();
    const id = String(req.headers['x-service-delivery-id']);
    if (!received.has(id)) received.set(id, at);
    req.resume();
    req.on('end', () => res.end());
    if (received.size >= BOOKINGS) waiting?.();
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverPort = (receiver.address() as AddressInfo).port;

  const { tag, business, location, service, staffIds, apiKey } = await createBenchSalon(app, {
    adminToken: ADMIN_TOKEN,
    tag: `bench-webhooks-${Date.now().toString(36)}`,
    timezone: TIME_ZONE,
    staff: STAFF,
    acceptance: 'manual',
    capabilities: ['booking.create'],
  });
  await raw.query('INSERT INTO webhook_configs (business_id, url, secret_ciphertext) VALUES ($1, $2, $3)', [
    business.id,
    `http://127.0.0.1:${receiverPort}/hook`,
    encryptSigningSecret(app.ctx.serverSecret, newSigningSecret()),
  ]);

  const localDate = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
  const perDay = STAFF * SLOT_TIMES.length;
  let next = 0;
  const createMs: number[] = [];
  async function createOne(): Promise<void> {
    const n = next++;
    const within = Math.floor(n / STAFF);
    const body = JSON.stringify({
      salonSlug: tag,
      locationSlug: location.slug,
      serviceId: service.id,
      expectedPricingVersion: service.pricingVersion,
      staffId: staffIds[n % STAFF],
      slot: {
        date: localDate.format(new Date(Date.now() + (2 + Math.floor(within / SLOT_TIMES.length)) * 86_400_000)),
        startTime: SLOT_TIMES[within % SLOT_TIMES.length],
      },
      guest: { name: `Guest ${n}`, phone: `+3630${String(1_000_000 + n)}` },
      consent: {
        privacyNoticeVersion: 'pn-1',
        termsVersion: 'tos-1',
        locale: 'hu-HU',
        acceptedAt: new Date().toISOString(),
        policyConsentGiven: true,
      },
    });
    const t0 = now();
    const r = await request(`http://127.0.0.1:${port}/v1/bookings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey.secret}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body,
    });
    const text = await r.body.text();
    createMs.push(now() - t0);
    if (r.statusCode !== 201) throw new Error(`create ${n}: ${r.statusCode} ${text}`);
  }
  if (BOOKINGS > perDay * 80) throw new Error('too many bookings for the 90-day horizon');

  const allDelivered = new Promise<void>((resolve) => {
    waiting = resolve;
  });
  const started = now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < BOOKINGS) await createOne();
    }),
  );
  const createdIn = (now() - started) / 1000;
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 60_000).unref());
  const finished = await Promise.race([allDelivered.then(() => 'ok' as const), timeout]);

  // The receiver's byte can precede the worker's record of the attempt: wait for the records too.
  for (let i = 0; i < 100; i++) {
    const open = await raw.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE business_id = $1 AND status IN ('pending', 'processing', 'retry_scheduled')`,
      [business.id],
    );
    if (open.rows[0]!.n === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }

  const latencies: number[] = [];
  for (const [id, at] of received) {
    const committed = db.commits.get(id);
    if (committed !== undefined) latencies.push(at - committed);
  }
  latencies.sort((a, b) => a - b);
  createMs.sort((a, b) => a - b);
  const status = await raw.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE business_id = $1 GROUP BY status ORDER BY status',
    [business.id],
  );
  const f = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(`# webhooks on ${name}: ${BOOKINGS} bookings (one event each) at ${CONNECTIONS} concurrent creates, worker in-process`);
  console.log(
    `creates:     ${createdIn.toFixed(1)} s (${(BOOKINGS / createdIn).toFixed(0)}/s), create latency p50 ${f(pct(createMs, 50))}, p99 ${f(pct(createMs, 99))}`,
  );
  console.log(
    `delivered:   ${received.size} of ${BOOKINGS}${finished === 'timeout' ? ' (gave up after 60 s)' : ''}; records ${JSON.stringify(Object.fromEntries(status.rows.map((r) => [r.status, r.n])))}`,
  );
  if (latencies.length > 0) {
    console.log(
      `commit → first byte: p50 ${f(pct(latencies, 50))}, p90 ${f(pct(latencies, 90))}, p99 ${f(pct(latencies, 99))}, max ${f(latencies[latencies.length - 1]!)} (min ${f(latencies[0]!)})`,
    );
    console.log(`target p50 < 50 ms: ${pct(latencies, 50) < 50 ? 'met' : 'NOT met'}`);
  }

  await worker.stop();
  await app.close();
  await rateLimitStore.close();
  await new Promise<void>((r) => receiver.close(() => r()));
  await raw.close();
  return received.size === BOOKINGS && latencies.length === BOOKINGS;
}

let ok = await run('PGlite (in memory)', await PgliteDb.open('memory://'));
const url = process.env.DATABASE_URL;
if (url) ok = (await run('PostgreSQL', PostgresDb.open(url, Number(process.env.DB_POOL_MAX ?? 20)))) && ok;
if (!ok) process.exitCode = 1;
