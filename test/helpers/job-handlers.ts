/**
 * Real job handlers for test/jobs.test.ts: each run writes a row to `job_test_runs` of the
 * database it runs on, so the test reads back which job ran, how often, on which worker.
 */
import type { Job, JobHandler } from '../../src/jobs/handler.ts';
import type { Db } from '../../src/store/db.ts';

export const RUNS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS job_test_runs (
  job_id text NOT NULL, attempt integer NOT NULL, worker text NOT NULL, phase text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())`;

export interface RecordPayload {
  /** the first `failures` runs throw */
  failures: number;
}

async function note(db: Db, job: Job<unknown>, worker: string, phase: string): Promise<void> {
  await db.query('INSERT INTO job_test_runs (job_id, attempt, worker, phase) VALUES ($1, $2, $3, $4)', [
    job.id,
    job.attempt,
    worker,
    phase,
  ]);
}

/** `test.record`: notes the run; fails its first `failures` runs. */
export function recordHandler(db: Db, worker: string, retryDelaysMs: readonly number[] = [50, 50]): JobHandler<RecordPayload> {
  return {
    kind: 'test.record',
    retryDelaysMs,
    leaseMs: 30_000,
    parse: (p) => {
      const failures = (p as { failures?: unknown }).failures;
      if (typeof failures !== 'number') throw new Error('failures is not a number');
      return { failures };
    },
    async run(job) {
      await note(db, job, worker, 'done');
      if (job.attempt <= job.payload.failures) throw new Error(`planned failure of run ${job.attempt}`);
      return undefined;
    },
  };
}

/**
 * `test.hang`: notes that it started, then never ends when `hang` is set (the worker holding it is
 * then killed); else notes that it finished.
 */
export function hangHandler(db: Db, worker: string, hang: boolean, leaseMs: number): JobHandler<Record<string, never>> {
  return {
    kind: 'test.hang',
    retryDelaysMs: [],
    leaseMs,
    parse: () => ({}),
    async run(job) {
      await note(db, job, worker, 'started');
      if (hang) await new Promise(() => {});
      await note(db, job, worker, 'done');
      return undefined;
    },
  };
}

/**
 * `test.batch`: runs up to `size` jobs at once (JobHandler.runBatch); notes each job with the size
 * of the batch it ran in; a job fails its first `failures` runs on its own, the batch's others not.
 */
export function batchHandler(db: Db, worker: string, size: number): JobHandler<RecordPayload> {
  const one = recordHandler(db, worker);
  const runOne = async (job: Job<RecordPayload>, phase: string): Promise<undefined | Error> => {
    await note(db, job, worker, phase);
    return job.attempt <= job.payload.failures ? new Error(`planned failure of run ${job.attempt}`) : undefined;
  };
  return {
    ...one,
    kind: 'test.batch',
    batchSize: size,
    async run(job) {
      const r = await runOne(job, 'batch:1');
      if (r) throw r;
      return undefined;
    },
    async runBatch(jobs) {
      return Promise.all(jobs.map((job) => runOne(job, `batch:${jobs.length}`)));
    },
  };
}

/** `test.slow`: a run that takes `runMs`, longer than its lease of `leaseMs`; notes its start and end. */
export function slowHandler(db: Db, worker: string, runMs: number, leaseMs: number): JobHandler<Record<string, never>> {
  return {
    kind: 'test.slow',
    retryDelaysMs: [],
    leaseMs,
    parse: () => ({}),
    async run(job) {
      await note(db, job, worker, 'started');
      await new Promise((r) => setTimeout(r, runMs));
      await note(db, job, worker, 'done');
      return undefined;
    },
  };
}
