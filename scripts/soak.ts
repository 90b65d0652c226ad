/**
 * `npm run soak [-- --seconds N]`: the whole service under load, faults and a crash, with its
 * promises checked afterwards (docs/reliability.md lists them).
 *
 * A throw-away PostgreSQL database; two API processes and a webhook worker as real processes on
 * 127.0.0.1; a flaky local webhook receiver; a mixed workload from many simulated integrators and
 * operators; halfway through, SIGKILL of one API process and the worker, and their restart. Then
 * the tables: requests by route and status, latencies, recovery times, and every invariant. Exit
 * code 1 when an invariant breaks (or the run cannot be made), 0 otherwise.
 *
 * Options: --seconds N (workload length, default 60), --keep (keep the database and the logs).
 * Environment: DATABASE_URL (base server; default postgres://postgres@127.0.0.1:5432/postgres; the
 * soak creates and drops its own booking_soak_* database there), REDIS_URL (passed on when set).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SoakClient } from './soak/client.ts';
import { createSoakDatabase, DEFAULT_BASE_URL, type SoakDatabase } from './soak/database.ts';
import { GuestData } from './soak/guest-data.ts';
import * as inv from './soak/invariants.ts';
import { freePort, listeningAt, ROOT, ServiceProcess, waitReady } from './soak/processes.ts';
import { WebhookReceiver } from './soak/receiver.ts';
import { Recorder } from './soak/recorder.ts';
import { factsTable, invariantTable, requestTable, statusTable } from './soak/report.ts';
import { setUpWorld } from './soak/setup.ts';
import { Workload } from './soak/workload.ts';

interface Options {
  seconds: number;
  keep: boolean;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { seconds: 60, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--seconds') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 5 || n > 3600) throw new Error('--seconds takes a whole number from 5 to 3600');
      o.seconds = n;
    } else if (a === '--keep') o.keep = true;
    else throw new Error(`unknown option ${a} (use --seconds N, --keep)`);
  }
  return o;
}

const WEBHOOK_TIMEOUT_MS = 1_000;
const KILL_MARGIN_MS = 2_000;
const START_TIMEOUT_MS = 90_000;
// A delivery claimed by the killed worker waits for its claim to lapse before it is tried again.
const DRAIN_MS = 75_000;

let opts: Options;
try {
  opts = parseArgs(process.argv.slice(2));
} catch (err) {
  console.error(`soak: ${(err as Error).message}`);
  process.exit(2);
}

const processes: ServiceProcess[] = [];
let db: SoakDatabase | undefined;
let logDir: string | undefined;
let receiver: WebhookReceiver | undefined;

async function cleanUp(keep: boolean): Promise<void> {
  await Promise.all(processes.map((p) => p.stop(5_000).catch(() => p.killNow())));
  await receiver?.stop().catch(() => undefined);
  if (db && !keep) await db.drop().catch((err) => console.error(`soak: could not drop ${db!.name}: ${(err as Error).message}`));
  if (logDir && !keep) rmSync(logDir, { recursive: true, force: true });
}

let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) return;
  interrupted = true;
  console.error('soak: interrupted; stopping the processes and dropping the database');
  void cleanUp(false).finally(() => process.exit(130));
});
process.on('exit', () => {
  for (const p of processes) p.killNow();
});

// The whole run is bounded: setup, workload, drain and checks, whatever happens.
const hardLimitMs = opts.seconds * 1000 + 2 * START_TIMEOUT_MS + DRAIN_MS + 60_000;
const hardTimer = setTimeout(() => {
  console.error(`soak: still running after ${hardLimitMs / 1000} s; giving up`);
  void cleanUp(false).finally(() => process.exit(1));
}, hardLimitMs);
hardTimer.unref();

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function main(): Promise<number> {
  const baseUrl = process.env.DATABASE_URL?.trim() || DEFAULT_BASE_URL;
  const runId = randomBytes(3).toString('hex');
  db = await createSoakDatabase(baseUrl);
  logDir = mkdtempSync(join(tmpdir(), 'booking-soak-'));
  console.log(`soak ${runId}: ${opts.seconds} s workload; database ${db.name}; logs ${logDir}`);

  const recorder = new Recorder();
  const guests = new GuestData(Date.now());
  receiver = new WebhookReceiver({ error500: 0.1, rate429: 0.07, late: 0.05 }, WEBHOOK_TIMEOUT_MS + 700, (t) => guests.leaksIn(t));
  await receiver.start();

  const adminToken = randomBytes(24).toString('hex');
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    DATABASE_URL: db.url,
    ADMIN_TOKEN: adminToken,
    SEED_DEMO: 'false',
    DB_POOL_MAX: '10',
    WEBHOOK_WORKER: 'false',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_DELAYS: '200ms-500ms,200ms-500ms',
    WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
    LOG_LEVEL: 'info',
  };
  if (process.env.REDIS_URL?.trim()) env.REDIS_URL = process.env.REDIS_URL.trim();

  const ports = [await freePort(), await freePort()];
  const bases = ports.map((p) => `http://127.0.0.1:${p}`);
  const apis = ports.map(
    (port, i) => new ServiceProcess(`api-${i}`, 'src/main.ts', { ...env, PORT: String(port) }, join(logDir!, `api-${i}.log`)),
  );
  processes.push(...apis);
  for (const a of apis) a.start();
  await Promise.all(apis.map((a, i) => waitReady(bases[i]!, a, START_TIMEOUT_MS)));

  const workerEntry = 'src/worker.ts';
  const workerMissing = existsSync(join(ROOT, workerEntry)) ? undefined : 'the webhook worker (src/worker.ts) is missing';
  let worker: ServiceProcess | undefined;
  if (!workerMissing) {
    worker = new ServiceProcess('worker', workerEntry, env, join(logDir, 'worker.log'));
    processes.push(worker);
    worker.start();
  }

  const client = new SoakClient(bases, recorder, guests, 15_000);
  const world = await setUpWorld(client, adminToken, receiver, {
    runId,
    businesses: 3,
    staffPerBusiness: 4,
    ownerKeysPerBusiness: 6,
  });
  const webhookMissing = world.webhookMissing ?? workerMissing;
  console.log(
    `setup: ${world.salons.length} businesses, ${world.salons.reduce((n, x) => n + x.ownerKeys.length + 2, 0)} keys; webhooks: ${webhookMissing ? `not available: ${webhookMissing}` : 'configured'}`,
  );

  // The workload, and halfway through it the crash.
  const workStart = Date.now();
  const deadline = workStart + opts.seconds * 1000;
  const workload = new Workload(client, recorder, guests, world.salons, adminToken, deadline, 20);
  let apiRecoveryMs: number | undefined;
  let restartAt = 0;
  const crash = (async () => {
    await sleep(opts.seconds * 500);
    const victim = apis[1]!;
    const killedAt = Date.now();
    recorder.kill = { killedAt, readyAt: undefined, marginMs: KILL_MARGIN_MS, api: 1 };
    await Promise.all([victim.kill(), worker?.kill()]);
    console.log(
      `+${((killedAt - workStart) / 1000).toFixed(1)} s: SIGKILL ${victim.name} (pid gone) and ${worker ? 'worker' : 'no worker'}; restarting`,
    );
    restartAt = Date.now();
    victim.start();
    worker?.start();
    const readyAt = await waitReady(bases[1]!, victim, START_TIMEOUT_MS);
    recorder.kill.readyAt = readyAt;
    apiRecoveryMs = readyAt - killedAt;
    console.log(`+${((readyAt - workStart) / 1000).toFixed(1)} s: ${victim.name} ready again after ${apiRecoveryMs} ms`);
  })();
  await Promise.all([workload.run(), crash]);
  const workloadMs = Date.now() - workStart;

  // Let the worker settle what is left (bounded), then stop everything before reading the logs.
  let drain = { open: 0, waitedMs: 0 };
  if (!webhookMissing) drain = await inv.waitForDeliveries(db.pool, DRAIN_MS);
  const workerRecovery = receiver.log.find((x) => restartAt > 0 && x.at > restartAt);
  for (const p of processes) await p.stop();
  await client.close();

  const results: inv.InvariantResult[] = [
    inv.no5xxOutsideKillWindow(
      recorder,
      processes.flatMap((p) => p.unexpectedExits),
    ),
    await inv.acknowledgedBookingsPersist(db.pool, workload.acks),
    await inv.noOverlaps(db.pool),
    await inv.eventSequences(db.pool),
    await inv.eventsQueued(db.pool, world.webhookMissing),
    ...(await inv.webhooksDelivered(db.pool, receiver, webhookMissing)),
    inv.noGuestDataLeaks(
      recorder,
      guests,
      receiver,
      processes.map((p) => p.logFile),
    ),
    inv.errorsAreCatalogCodes(recorder),
    inv.clientChecks(recorder, workload.stats.replays),
  ];

  const listening = restartAt > 0 ? listeningAt(apis[1]!.logFile, restartAt) : undefined;
  const s = workload.stats;
  const facts: Array<[string, string]> = [
    [
      'workload',
      `${(workloadMs / 1000).toFixed(1)} s, ${recorder.records.length} requests, ${(recorder.records.length / (workloadMs / 1000)).toFixed(1)} requests/s`,
    ],
    [
      'bookings',
      `${s.created} created (201), ${s.replays} same-key replays, ${s.payloadMismatchChecks} same-key other-body checks, ${s.cancels} cancelled, ${s.operatorActions} operator actions; ${s.createsUnanswered} creates given up while still answered "try again"`,
    ],
    [
      'API recovery after SIGKILL (until /readyz answers)',
      apiRecoveryMs === undefined
        ? 'did not recover'
        : `${apiRecoveryMs} ms${listening ? ` (listening ${listening - restartAt} ms after the restart)` : ''}`,
    ],
    [
      'kill window (SIGKILL to ready + margin)',
      recorder.kill?.readyAt ? `${recorder.kill.readyAt + KILL_MARGIN_MS - recorder.kill.killedAt} ms` : 'open',
    ],
    [
      'worker: first delivery after the restart',
      webhookMissing
        ? `not available: ${webhookMissing}`
        : workerRecovery
          ? `${workerRecovery.at - (recorder.kill?.killedAt ?? 0)} ms after the kill`
          : 'none',
    ],
    ['webhook drain after the workload', webhookMissing ? 'n/a' : `${drain.waitedMs} ms, ${drain.open} still open`],
    [
      'receiver',
      `${receiver.log.length} requests: ${['ok', 'error500', 'rate429', 'late'].map((a) => `${a} ${receiver!.log.filter((x) => x.answer === a).length}`).join(', ')}`,
    ],
    ['rate-limit store', env.REDIS_URL ? 'Redis' : 'in-process'],
  ];

  console.log('\n## Requests by route\n');
  console.log(requestTable(recorder, workloadMs));
  console.log('\n## Requests by status\n');
  console.log(statusTable(recorder));
  console.log('\n## Run\n');
  console.log(factsTable(facts));
  console.log('\n## Invariants\n');
  console.log(invariantTable(results));
  const broken = results.filter((r) => r.outcome === 'fail');
  const na = results.filter((r) => r.outcome === 'n/a');
  console.log('');
  for (const r of na) console.log(`NOT CHECKED: ${r.name}: ${r.detail}`);
  if (broken.length > 0) {
    console.log(`SOAK FAILED: ${broken.length} invariant(s) broken:`);
    for (const r of broken) console.log(`  - ${r.name}`);
  } else console.log(`SOAK PASSED: ${results.length - na.length} invariants hold${na.length ? `, ${na.length} not checked` : ''}`);
  return broken.length > 0 ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(`soak: ${(err as Error).stack ?? err}`);
  if (logDir) console.error(`soak: process logs in ${logDir}`);
  code = 1;
  await cleanUp(true);
  if (db) await db.drop().catch(() => undefined);
  process.exit(code);
}
await cleanUp(opts.keep);
process.exit(code);
