/**
 * The generic job worker (src/jobs/, docs/jobs.md) with real handlers registered here: each run
 * writes a row of its own to the database, so the tests read back what ran, how often and where.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { JobHandler } from '../src/jobs/handler.ts';
import { HOUSEKEEPING_KIND } from '../src/jobs/handlers/housekeeping.ts';
import { JobRegistry } from '../src/jobs/registry.ts';
import { startJobWorker } from '../src/jobs/start.ts';
import { TableQueue } from '../src/jobs/table-queue.ts';
import { JobWorker } from '../src/jobs/worker.ts';
import { Metrics } from '../src/metrics.ts';
import type { Db } from '../src/store/db.ts';
import { cancelJob, claimJobs, planJob } from '../src/store/jobs.ts';
import { PostgresDb } from '../src/store/postgres-db.ts';
import { createSalon } from './helpers/fixtures.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { openScratchPostgres } from './helpers/isolated-databases.ts';
import { dbTargets, type DbTarget } from './helpers/databases.ts';
import { RUNS_TABLE_SQL, batchHandler, hangHandler, recordHandler, slowHandler } from './helpers/job-handlers.ts';

const ROOT = join(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** PGlite in memory; PostgreSQL as a scratch database of its own (its URL kept for a second pool or process). */
function targets(): Array<DbTarget & { url?: () => string }> {
  return dbTargets().map((t) => {
    if (t.name !== 'postgres') return t;
    let url = '';
    return {
      name: 'postgres',
      open: async (): Promise<Db> => {
        const db = await openScratchPostgres(process.env.DATABASE_URL!);
        url = db.url;
        return db;
      },
      url: () => url,
    };
  });
}

async function waitFor<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > until) throw new Error(`${what}: not reached within ${timeoutMs} ms; last ${JSON.stringify(v)}`);
    await sleep(25);
  }
}

interface JobRow {
  id: string;
  status: string;
  attempts: number;
  last_error: string | null;
}

for (const target of targets()) {
  describe(`jobs [${target.name}]`, () => {
    let h: Harness;
    let worker: JobWorker;
    before(async () => {
      h = await startHarness(target);
      await h.db.query(RUNS_TABLE_SQL);
      worker = await startJobWorker({
        db: h.db,
        config: h.app.ctx.config,
        webhooks: false,
        housekeeping: false,
        pollIntervalMs: 200,
        extraHandlers: [recordHandler(h.db, 'main') as JobHandler<never>, batchHandler(h.db, 'main', 5) as JobHandler<never>],
      });
    });
    after(async () => {
      await worker.stop();
      await h.close();
    });

    const job = async (id: string) =>
      (await h.db.query<JobRow>('SELECT id, status, attempts, last_error FROM jobs WHERE id = $1', [id])).rows[0];
    const runs = async (id: string) =>
      (
        await h.db.query<{ attempt: number; worker: string; phase: string }>(
          'SELECT attempt, worker, phase FROM job_test_runs WHERE job_id = $1 ORDER BY at',
          [id],
        )
      ).rows;
    const attempts = async (id: string) =>
      (
        await h.db.query<{ attempt: number; outcome: string; error: string | null; started_at: Date }>(
          'SELECT attempt, outcome, error, started_at FROM job_attempts WHERE job_id = $1 ORDER BY attempt',
          [id],
        )
      ).rows;
    const final = async (id: string): Promise<JobRow> =>
      (await waitFor(
        `job ${id} final`,
        () => job(id),
        (r) => r !== undefined && ['succeeded', 'failed', 'skipped'].includes(r.status),
      ))!;

    test('a job planned in a transaction that rolls back never exists and never runs', async () => {
      let planned: string | null = null;
      await assert.rejects(
        h.db.transaction(async (tx) => {
          planned = await planJob(tx, { kind: 'test.record', businessId: null, payload: { failures: 0 } });
          throw new Error('the cause failed');
        }),
        /the cause failed/,
      );
      assert.ok(planned, 'the plan was made inside the transaction');
      // A job committed after it runs; by then the rolled-back one would have run too.
      const marker = await h.db.transaction((tx) => planJob(tx, { kind: 'test.record', businessId: null, payload: { failures: 0 } }));
      await final(marker!);
      assert.equal(await job(planned!), undefined);
      assert.deepEqual(await runs(planned!), []);
    });

    test('a committed job runs once, and its run is recorded', async () => {
      const id = await h.db.transaction((tx) => planJob(tx, { kind: 'test.record', businessId: null, payload: { failures: 0 } }));
      const row = await final(id!);
      assert.deepEqual([row.status, row.attempts, row.last_error], ['succeeded', 1, null]);
      // Several polls later it has still run once.
      await sleep(700);
      assert.deepEqual(
        (await runs(id!)).map((r) => r.attempt),
        [1],
      );
      assert.deepEqual(
        (await attempts(id!)).map((a) => [a.attempt, a.outcome, a.error]),
        [[1, 'succeeded', null]],
      );
    });

    test("a failing job is retried by its handler's policy, each run recorded; past the policy it ends failed", async () => {
      const [flaky, broken] = await h.db.transaction(async (tx) => [
        await planJob(tx, { kind: 'test.record', businessId: null, payload: { failures: 2 } }),
        await planJob(tx, { kind: 'test.record', businessId: null, payload: { failures: 99 } }),
      ]);
      const ok = await final(flaky!);
      assert.deepEqual([ok.status, ok.attempts, ok.last_error], ['succeeded', 3, null]);
      const log = await attempts(flaky!);
      assert.deepEqual(
        log.map((a) => [a.attempt, a.outcome, a.error]),
        [
          [1, 'failed', 'planned failure of run 1'],
          [2, 'failed', 'planned failure of run 2'],
          [3, 'succeeded', null],
        ],
      );
      // The policy's waits (50 ms) lie between the runs.
      for (let i = 1; i < log.length; i++) assert.ok(log[i]!.started_at.getTime() - log[i - 1]!.started_at.getTime() >= 45);
      const bad = await final(broken!);
      // Two delays: three runs in all, then the end.
      assert.deepEqual([bad.status, bad.attempts, bad.last_error], ['failed', 3, 'planned failure of run 3']);
      assert.deepEqual(
        (await attempts(broken!)).map((a) => a.outcome),
        ['failed', 'failed', 'failed'],
      );
      assert.equal((await runs(broken!)).length, 3);
    });

    test('a payload the handler refuses fails the job at once, without retries', async () => {
      const id = await h.db.transaction((tx) => planJob(tx, { kind: 'test.record', businessId: null, payload: { failures: 'x' } }));
      const row = await final(id!);
      assert.deepEqual([row.status, row.attempts], ['failed', 1]);
      assert.match(row.last_error ?? '', /payload refused/);
      assert.deepEqual(await runs(id!), []);
    });

    test('a batch kind runs its due jobs together, records each run, and retries a failed job alone', async () => {
      // 23 jobs due at once, every fourth failing its first run: claimed in batches of at most 5
      const ids = await h.db.transaction(async (tx) => {
        const planned: string[] = [];
        for (let i = 0; i < 23; i++) {
          planned.push((await planJob(tx, { kind: 'test.batch', businessId: null, payload: { failures: i % 4 === 0 ? 1 : 0 } }))!);
        }
        return planned;
      });
      const sizes: number[] = [];
      for (const [i, id] of ids.entries()) {
        const row = await final(id);
        assert.equal(row.status, 'succeeded', `job ${i}`);
        const failing = i % 4 === 0;
        assert.equal(row.attempts, failing ? 2 : 1, `job ${i}: one run, and one more after its own failure`);
        const recorded = await attempts(id);
        assert.deepEqual(
          recorded.map((a) => [a.attempt, a.outcome]),
          failing
            ? [
                [1, 'failed'],
                [2, 'succeeded'],
              ]
            : [[1, 'succeeded']],
        );
        const ran = await runs(id);
        assert.equal(ran.length, row.attempts, `job ${i} ran once per attempt`);
        sizes.push(...ran.map((r) => Number(r.phase.split(':')[1])));
      }
      assert.ok(Math.max(...sizes) <= 5, `no batch above its size: ${sizes.join(',')}`);
      assert.ok(Math.max(...sizes) > 1, `jobs due together ran together: ${sizes.join(',')}`);
    });

    test('a live dedupe key plans once', async () => {
      // Planned for later so it stays live while the second plan is made.
      const runAt = new Date(Date.now() + 60_000);
      const first = await planJob(h.db, { kind: 'test.record', businessId: null, payload: { failures: 0 }, dedupeKey: 'once', runAt });
      const second = await planJob(h.db, { kind: 'test.record', businessId: null, payload: { failures: 0 }, dedupeKey: 'once', runAt });
      assert.ok(first);
      assert.equal(second, null);
    });

    test('a job cancelled in a transaction before it is due never runs', async () => {
      const id = (await planJob(h.db, {
        kind: 'test.record',
        businessId: null,
        payload: { failures: 0 },
        dedupeKey: 'cancel-me',
        runAt: new Date(Date.now() + 300),
      }))!;
      assert.equal(await h.db.transaction((tx) => cancelJob(tx, 'cancel-me')), true);
      await sleep(900);
      assert.equal((await job(id))!.status, 'cancelled');
      assert.deepEqual(await runs(id), []);
    });

    test('several workers over many jobs never run one job twice', async () => {
      // On PostgreSQL the others have pools of their own: the claims really race in the database.
      const others: Db[] =
        target.name === 'postgres' ? [PostgresDb.open(target.url!(), 4), PostgresDb.open(target.url!(), 4)] : [h.db, h.db];
      const extra = others.map(
        (db, i) =>
          new JobWorker({
            db,
            queues: [new TableQueue(db, new JobRegistry().register(recordHandler(db, `extra${i}`)).handlers)],
            concurrency: 3,
            pollIntervalMs: 50,
          }),
      );
      try {
        for (const w of extra) await w.start();
        const ids = await h.db.transaction(async (tx) => {
          const out: string[] = [];
          // Every third one fails once, so retries race too.
          for (let i = 0; i < 150; i++)
            out.push((await planJob(tx, { kind: 'test.record', businessId: null, payload: { failures: i % 3 === 0 ? 1 : 0 } }))!);
          return out;
        });
        await waitFor(
          'all 150 jobs succeeded',
          async () =>
            (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE id = ANY($1) AND status = 'succeeded'`, [ids]))
              .rows[0]!.n,
          (n) => n === 150,
          60_000,
        );
        const perRun = await h.db.query<{ job_id: string; attempt: number; n: number }>(
          `SELECT job_id, attempt, count(*)::int AS n FROM job_test_runs WHERE job_id = ANY($1) GROUP BY job_id, attempt`,
          [ids],
        );
        assert.equal(perRun.rows.filter((r) => r.n !== 1).length, 0, 'a run was made twice');
        assert.equal(perRun.rows.length, 150 + 50);
        const workers = await h.db.query<{ worker: string }>('SELECT DISTINCT worker FROM job_test_runs WHERE job_id = ANY($1)', [ids]);
        assert.ok(workers.rows.length >= 2, `the work was shared: ${JSON.stringify(workers.rows)}`);
      } finally {
        for (const w of extra) await w.stop();
        if (target.name === 'postgres') for (const db of others) await db.close();
      }
    });

    test('a live worker keeps its claim while a run outlasts the lease: no other worker runs it again', async () => {
      // Two workers on the kind; the run takes 4 s under a lease of 1.2 s, which only the heartbeat extends.
      const others: Db[] =
        target.name === 'postgres' ? [PostgresDb.open(target.url!(), 2), PostgresDb.open(target.url!(), 2)] : [h.db, h.db];
      const workers = others.map(
        (db, i) =>
          new JobWorker({
            db,
            queues: [new TableQueue(db, new JobRegistry().register(slowHandler(db, `slow${i}`, 4000, 1200)).handlers)],
            concurrency: 2,
            pollIntervalMs: 100,
          }),
      );
      try {
        for (const w of workers) await w.start();
        const id = (await h.db.transaction((tx) => planJob(tx, { kind: 'test.slow', businessId: null })))!;
        const row = await final(id);
        assert.equal(row.status, 'succeeded');
        assert.equal(row.attempts, 1);
        await sleep(1500);
        const ran = await runs(id);
        assert.deepEqual(
          ran.map((r) => r.phase),
          ['started', 'done'],
          `one run only: ${JSON.stringify(ran)}`,
        );
      } finally {
        for (const w of workers) await w.stop();
        if (target.name === 'postgres') for (const db of others) await db.close();
      }
    });

    test('a worker that dies mid-run: once its lease lapses, another worker runs the job again', async () => {
      const id = (await h.db.transaction((tx) => planJob(tx, { kind: 'test.hang', businessId: null })))!;
      let child: ChildProcess | undefined;
      if (target.name === 'postgres') {
        // A worker process whose handler never ends, killed by SIGKILL in the middle of the run.
        child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/job-worker-child.ts'], {
          cwd: ROOT,
          stdio: ['ignore', 'ignore', 'inherit'],
          env: { PATH: process.env.PATH, DATABASE_URL: target.url!(), LEASE_MS: '1500' },
        });
        await waitFor(
          'the child started the run',
          () => runs(id),
          (r) => r.length === 1,
          60_000,
        );
        child.kill('SIGKILL');
        await new Promise((r) => child!.once('exit', r));
      } else {
        // One database, one process: the dead worker is a claim that nobody finishes, which is
        // exactly what a killed worker leaves behind.
        const [claimed] = await claimJobs(h.db, [{ kind: 'test.hang', leaseMs: 1500 }], 10);
        assert.equal(claimed?.id, id);
      }
      assert.equal((await job(id))!.status, 'running', 'the dead worker still holds the claim');
      const rescuer = new JobWorker({
        db: h.db,
        queues: [new TableQueue(h.db, new JobRegistry().register(hangHandler(h.db, 'rescuer', false, 1500)).handlers)],
        pollIntervalMs: 100,
      });
      await rescuer.start();
      try {
        const row = await final(id);
        assert.deepEqual([row.status, row.attempts], ['succeeded', 1]);
        // The cut run was never recorded, so it is made again under the same number.
        const made = (await runs(id)).map((r) => [r.worker, r.attempt, r.phase]);
        assert.deepEqual(
          made.filter((r) => r[0] === 'rescuer'),
          [
            ['rescuer', 1, 'started'],
            ['rescuer', 1, 'done'],
          ],
        );
        assert.deepEqual(
          (await attempts(id)).map((a) => [a.attempt, a.outcome]),
          [[1, 'succeeded']],
        );
      } finally {
        await rescuer.stop();
      }
    });

    test('housekeeping runs as a recurring job: it purges, is recorded, and plans its next run an hour on', async () => {
      const salon = await createSalon(h.app);
      await h.db.query(
        `INSERT INTO idempotency_records (business_id, idempotency_key, operation, fingerprint, state, created_at)
         VALUES ($1, 'old-key', 'test', 'f', 'completed', now() - interval '25 hours'),
                ($1, 'new-key', 'test', 'f', 'completed', now())`,
        [salon.business.id],
      );
      const metrics = new Metrics();
      const keeper = await startJobWorker({ db: h.db, config: h.app.ctx.config, webhooks: false, pollIntervalMs: 100, metrics });
      try {
        const done = await waitFor(
          'a housekeeping run',
          async () =>
            (
              await h.db.query<JobRow>(`SELECT id, status, attempts, last_error FROM jobs WHERE kind = $1 AND status = 'succeeded'`, [
                HOUSEKEEPING_KIND,
              ])
            ).rows,
          (r) => r.length === 1,
        );
        assert.deepEqual(
          (await attempts(done[0]!.id)).map((a) => a.outcome),
          ['succeeded'],
        );
        // the daily client retention runs beside it on the same worker (a recurring job too)
        const counted = (await metrics.jobRuns.get()).values.map((v) => [v.labels.kind, v.labels.outcome, v.value]);
        assert.deepEqual(
          counted.filter(([kind]) => kind === HOUSEKEEPING_KIND),
          [[HOUSEKEEPING_KIND, 'succeeded', 1]],
        );
        const keys = await h.db.query<{ idempotency_key: string }>(
          'SELECT idempotency_key FROM idempotency_records WHERE business_id = $1',
          [salon.business.id],
        );
        assert.deepEqual(
          keys.rows.map((r) => r.idempotency_key),
          ['new-key'],
        );
        const live = await h.db.query<{ in_minutes: number }>(
          `SELECT round(extract(epoch FROM run_at - now()) / 60)::int AS in_minutes FROM jobs
            WHERE kind = $1 AND status IN ('pending', 'running', 'retry_scheduled')`,
          [HOUSEKEEPING_KIND],
        );
        assert.deepEqual(
          live.rows.map((r) => r.in_minutes),
          [60],
        );
      } finally {
        await keeper.stop();
      }
      // Another worker starting finds the series and plans no second one.
      const second = await startJobWorker({ db: h.db, config: h.app.ctx.config, webhooks: false, pollIntervalMs: 100 });
      await second.stop();
      const series = await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = $1 AND status = 'pending'`, [
        HOUSEKEEPING_KIND,
      ]);
      assert.equal(series.rows[0]!.n, 1);
    });
  });
}
