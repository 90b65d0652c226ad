/**
 * `npm run bench:reminders` (issue 25, "Done when"): 10,000 reminders due in the same minute are all
 * sent within 2 minutes on the embedded database with a local SMTP sink, without slowing
 * `POST /v1/bookings` p99 by more than 20 %.
 *
 * World: PGlite in a fresh temp folder; the real app on 127.0.0.1 with the job worker in the same
 * process (as `npm start` runs it: webhooks, housekeeping, guest messages); a real SMTP server
 * (smtp-server) on 127.0.0.1, in a process of its own, that counts what it accepts; bench/salon.ts's salon (20 staff, an
 * automatic 30-minute service) with the default guest settings (a reminder 1,440 minutes before).
 *
 * 1. Setup: 10,000 bookings through POST /v1/bookings (autocannon in a child process); then the
 *    worker starts and plans and sends each one's confirmation and plans its reminder, as it would
 *    for guests.
 * 2. Baseline: POST /v1/bookings at concurrency 10 (new slots), the worker sending those bookings'
 *    confirmations as it goes: p99 A.
 * 3. Burst: the 10,000 reminders' due time (the rows and their jobs) is moved to the start of the
 *    next minute, the one change the bench makes by hand; from that moment the same load runs again
 *    (p99 B) while the worker sends them. Prints how long until the last reminder was accepted by the
 *    SMTP server and p99 B ÷ p99 A; then a second baseline (A2) to show the machine did not change.
 *
 * Environment: BENCH_REMINDERS (default 10000), BENCH_REQUESTS (per load phase, default 1500),
 * BENCH_PROFILE (a file: the CPU profile of the app's process while the reminders are sent).
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { startJobWorker } from '../src/jobs/start.ts';
import { migrate } from '../src/store/migrate.ts';
import { PgliteDb } from '../src/store/pglite-db.ts';
import type { LoadSpec } from './load-process.ts';
import { openRateLimits } from './never-refusing.ts';
import { createBenchSalon } from './salon.ts';

const REMINDERS = Number(process.env.BENCH_REMINDERS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1500);
const CONNECTIONS = 10;
const STAFF = 20;
const TIME_ZONE = 'Europe/Budapest';
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const SLOT_TIMES = Array.from({ length: 16 }, (_, i) => `${String(9 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);
const TARGET_SECONDS = 120;
const TARGET_RATIO = 1.2;

// --- the SMTP sink, in a process of its own (bench/smtp-sink-process.ts) ----------------------------
const sink = fork(fileURLToPath(new URL('./smtp-sink-process.ts', import.meta.url)), { execArgv: ['--import', 'tsx'] });
const smtpPort = await new Promise<number>((resolve) => sink.once('message', (m: { port: number }) => resolve(m.port)));
let accepted = 0;
let lastAcceptedAt = 0;
async function sinkCount(): Promise<void> {
  const m = await new Promise<{ accepted: number; lastAcceptedAt: number }>((resolve) => {
    sink.once('message', resolve);
    sink.send('count');
  });
  accepted = m.accepted;
  lastAcceptedAt = m.lastAcceptedAt;
}

const dir = await mkdtemp(join(tmpdir(), 'bench-reminders-'));
const config = loadConfig({
  ...process.env,
  ADMIN_TOKEN,
  WEBHOOK_WORKER: 'false',
  SEED_DEMO: 'false',
  LOG_LEVEL: 'silent',
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  DATABASE_URL: '',
});
const db = await PgliteDb.open(join(dir, 'data'));
await migrate(db);
const rateLimitStore = await openRateLimits();
const app = await buildApp({ config, db, logger: false, rateLimitStore });
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as AddressInfo;

const salon = await createBenchSalon(app, {
  adminToken: ADMIN_TOKEN,
  tag: `rem-${Date.now().toString(36)}`,
  timezone: TIME_ZONE,
  staff: STAFF,
  acceptance: 'automatic',
  capabilities: ['booking.create', 'booking.read'],
});

// Every (staff, day, time) is one slot; slot n is taken by the n-th booking of the bench.
const localDate = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
const perDay = STAFF * SLOT_TIMES.length;
let next = 0;
function nextBody(): string {
  const n = next++;
  const within = Math.floor(n / STAFF);
  // from the day after tomorrow: every reminder (1,440 minutes before) is still ahead
  const date = localDate.format(new Date(Date.now() + (2 + Math.floor(within / SLOT_TIMES.length)) * 86_400_000));
  return JSON.stringify({
    salonSlug: salon.tag,
    locationSlug: salon.location.slug,
    serviceId: salon.service.id,
    expectedPricingVersion: salon.service.pricingVersion,
    staffId: salon.staffIds[n % STAFF],
    slot: { date, startTime: SLOT_TIMES[within % SLOT_TIMES.length] },
    guest: { name: `Guest ${n}`, phone: `+3630${String(1_000_000 + n)}`, email: `guest${n}@example.com` },
    consent: {
      privacyNoticeVersion: 'pn-1',
      termsVersion: 'tos-1',
      locale: 'en-GB',
      acceptedAt: new Date().toISOString(),
      policyConsentGiven: true,
    },
  });
}

async function load(amount: number, connections = CONNECTIONS): Promise<autocannon.Result> {
  const spec: LoadSpec = {
    url: `http://127.0.0.1:${port}`,
    path: '/v1/bookings',
    connections,
    headers: { authorization: `Bearer ${salon.apiKey.secret}`, 'content-type': 'application/json' },
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

async function count(sql: string, params: unknown[] = []): Promise<number> {
  return (await db.query<{ n: number }>(sql, params)).rows[0]!.n;
}

async function waitFor(what: string, done: () => Promise<boolean>, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  let said = Date.now();
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    if (Date.now() - said > 30_000) {
      said = Date.now();
      await sinkCount();
      console.log(`  … waiting for ${what}: ${accepted} messages accepted by the SMTP server so far`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

function created(r: autocannon.Result): number {
  const stats = (r as unknown as { statusCodeStats?: Record<string, { count: number | string }> }).statusCodeStats ?? {};
  return Number(stats['201']?.count ?? 0);
}

const needDays = Math.ceil((REMINDERS + 3 * REQUESTS) / perDay) + 2;
if (needDays > 88) throw new Error(`${needDays} days of slots are past the location's 90-day horizon: lower BENCH_REMINDERS`);

console.log(`# ${REMINDERS} reminders due in one minute — PGlite, job worker in the API process, SMTP sink on 127.0.0.1`);
console.log(
  `load before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

// 1. Setup --------------------------------------------------------------------------------------
// The bookings first, then the worker catches up with their follow-ups (confirmations sent,
// reminders planned): 50 connections of creates and a busy worker on PGlite's one connection make
// a setup of minutes with requests past autocannon's 20 s timeout.
const setup = await load(REMINDERS, 50);
console.log(`  ${created(setup)} bookings made in ${setup.duration.toFixed(1)} s`);
let t0 = Date.now();
const worker = await startJobWorker({ db, config, webhooks: true, housekeeping: true, notifications: true });
if (created(setup) !== REMINDERS) {
  const stats = (setup as unknown as { statusCodeStats?: unknown }).statusCodeStats;
  throw new Error(
    `setup made ${created(setup)} of ${REMINDERS} bookings: ${JSON.stringify(stats)}, errors ${setup.errors}, timeouts ${setup.timeouts}`,
  );
}
const remindersSql = `SELECT count(*)::int AS n FROM messages WHERE business_id = $1 AND kind = 'booking.reminder'`;
await waitFor(
  'the setup bookings’ reminders to be planned',
  async () => (await count(remindersSql, [salon.business.id])) >= REMINDERS,
  600_000,
);
const confirmedSql = `SELECT count(*)::int AS n FROM messages WHERE business_id = $1 AND kind = 'booking.confirmed' AND status <> 'pending'`;
await waitFor('the setup confirmations to be sent', async () => (await count(confirmedSql, [salon.business.id])) >= REMINDERS, 900_000);
const setupSeconds = (Date.now() - t0) / 1000;
console.log(
  `setup:       ${REMINDERS} bookings in ${setup.duration.toFixed(1)} s, then the worker started: their ${REMINDERS} confirmations sent and reminders planned in ${setupSeconds.toFixed(1)} s (${(REMINDERS / setupSeconds).toFixed(0)} bookings/s, two follow-ups and a send each)`,
);

// 2. Baseline --------------------------------------------------------------------------------------
// the reminders moved in step 3 are the setup bookings' only (the load phases' own wait their turn)
const setupEnd = new Date();
const a = await load(REQUESTS);
console.log(`baseline A:  p50 ${a.latency.p50} ms, p99 ${a.latency.p99} ms, ${created(a)} × 201 in ${a.duration.toFixed(1)} s`);

// 3. Burst -----------------------------------------------------------------------------------------
const due = new Date(Math.ceil((Date.now() + 5_000) / 60_000) * 60_000);
await db.query(
  `WITH moved AS (
     UPDATE messages SET scheduled_at = $2
      WHERE business_id = $1 AND kind = 'booking.reminder' AND status = 'pending'
        AND booking_id IN (SELECT id FROM bookings WHERE business_id = $1 AND created_at < $3)
      RETURNING job_id
   )
   UPDATE jobs SET run_at = $2 WHERE id IN (SELECT job_id FROM moved)`,
  [salon.business.id, due, setupEnd],
);
const duePending = await count(
  `SELECT count(*)::int AS n FROM messages WHERE business_id = $1 AND kind = 'booking.reminder' AND scheduled_at = $2`,
  [salon.business.id, due],
);
await new Promise((r) => setTimeout(r, due.getTime() - Date.now()));
await sinkCount();
const acceptedAtDue = accepted;
t0 = Date.now();
// BENCH_PROFILE=file.cpuprofile: a CPU profile of this process (app and worker) while the reminders are sent
const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const b = await load(REQUESTS);
console.log(
  `burst B:     p50 ${b.latency.p50} ms, p99 ${b.latency.p99} ms, ${created(b)} × 201 in ${b.duration.toFixed(1)} s, while sending`,
);
const sentSql = `SELECT count(*)::int AS n FROM messages WHERE business_id = $1 AND scheduled_at = $2 AND status = 'sent'`;
await waitFor('every reminder to be sent', async () => (await count(sentSql, [salon.business.id, due])) >= duePending, 600_000);
const lastSent = await db.query<{ at: Date }>(`SELECT max(sent_at) AS at FROM messages WHERE business_id = $1 AND scheduled_at = $2`, [
  salon.business.id,
  due,
]);
await sinkCount();
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop');
  await writeFile(process.env.BENCH_PROFILE!, JSON.stringify(profile));
  profiler.disconnect();
}
const burstSeconds = (new Date(lastSent.rows[0]!.at).getTime() - due.getTime()) / 1000;
console.log(
  `reminders:   ${duePending} due at ${due.toISOString()}; the last sent ${burstSeconds.toFixed(1)} s later (${(duePending / burstSeconds).toFixed(0)}/s); SMTP sink accepted ${accepted - acceptedAtDue} messages since (reminders and B's confirmations), last ${((lastAcceptedAt - due.getTime()) / 1000).toFixed(1)} s after`,
);

const a2 = await load(REQUESTS);
console.log(`baseline A2: p50 ${a2.latency.p50} ms, p99 ${a2.latency.p99} ms, ${created(a2)} × 201 in ${a2.duration.toFixed(1)} s`);
// judged against the faster of the two baselines: the stricter reading of "not slowed by more than 20 %"
const ratio = b.latency.p99 / Math.min(a.latency.p99, a2.latency.p99);
console.log(
  `p99 B ÷ A:   ${(b.latency.p99 / a.latency.p99).toFixed(2)}; B ÷ A2 ${(b.latency.p99 / a2.latency.p99).toFixed(2)} (target ≤ ${TARGET_RATIO} against both)`,
);
console.log(
  `targets:     all sent within ${TARGET_SECONDS} s: ${burstSeconds <= TARGET_SECONDS ? 'met' : 'NOT met'}; p99 +20 % at most: ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`,
);
console.log(
  `load after:  ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

await worker.stop();
await app.close();
await rateLimitStore.close();
await db.close();
sink.send('stop');
await rm(dir, { recursive: true, force: true });
