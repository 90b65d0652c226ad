import type { Logger } from 'pino';
import { afterFailure } from '../domain/jobs/retry.ts';
import type { Metrics } from '../metrics.ts';
import type { Db } from '../store/db.ts';
import {
  JOBS_CHANNEL,
  claimJobs,
  ensureRecurringJob,
  extendLeases,
  finishJobs,
  releaseJobs,
  type ClaimKind,
  type ClaimedJob,
  type JobFinish,
  type JobNext,
  type JobRunOutcome,
} from '../store/jobs.ts';
import { PermanentJobError, type ClaimedWork, type Job, type JobHandler, type JobQueue, type JobResult } from './handler.ts';

/** The dedupe key of a recurring kind's one live job. */
export const recurringKey = (kind: string): string => `recurring:${kind}`;

/** The job table as one of the worker's queues: every registered handler's jobs. */
export class TableQueue implements JobQueue {
  readonly kind = 'jobs';
  readonly channel = JOBS_CHANNEL;
  private readonly kinds: ClaimKind[];

  constructor(
    private readonly db: Db,
    private readonly handlers: ReadonlyMap<string, JobHandler<unknown>>,
    private readonly logger?: Logger | undefined,
    private readonly metrics?: Metrics | undefined,
  ) {
    this.kinds = [...handlers.values()].map((h) => ({
      kind: h.kind,
      leaseMs: h.leaseMs,
      batch: h.runBatch ? Math.max(1, h.batchSize ?? 1) : 1,
    }));
  }

  async start(): Promise<void> {
    for (const h of this.handlers.values()) if (h.everyMs !== undefined) await ensureRecurringJob(this.db, h.kind, recurringKey(h.kind));
  }

  /** Up to `limit` runs: one job each, or a batch of one kind's due jobs (JobHandler.batchSize). */
  async claim(limit: number): Promise<ClaimedWork[]> {
    const units = unitsOf(await claimJobs(this.db, this.kinds, limit), this.kinds);
    const rest = units.splice(limit);
    if (rest.length > 0) {
      // more than the free slots: given back at once rather than held until their lease lapses
      await releaseJobs(this.db, rest.flat()).catch((err: unknown) => this.logger?.warn({ err }, 'jobs: giving back a claim failed'));
    }
    return units.map((unit) => ({
      label:
        unit.length === 1
          ? { jobId: unit[0]!.id, kind: unit[0]!.kind, attempt: unit[0]!.attempt }
          : { kind: unit[0]!.kind, jobs: unit.length },
      run: () => this.runUnit(unit),
      release: () => releaseJobs(this.db, unit),
    }));
  }

  private heartbeat(rows: readonly ClaimedJob[], leaseMs: number): { stop(): Promise<void> } {
    return heartbeatOf(this.db, rows, leaseMs, this.logger);
  }

  /** Runs one job, or one kind's batch, and records every run in one statement. */
  private async runUnit(rows: readonly ClaimedJob[]): Promise<{ retryAt?: number | undefined }> {
    const h = this.handlers.get(rows[0]!.kind)!;
    const startedAt = new Date();
    const t0 = performance.now();
    const beat = this.heartbeat(rows, h.leaseMs);
    let results: Array<JobResult | Error>;
    try {
      results = await runAll(h, rows);
    } finally {
      await beat.stop();
    }
    const durationMs = Math.round(performance.now() - t0);
    const finishes: JobFinish[] = rows.map((row, i) => {
      const result = results[i];
      const failed = result instanceof Error;
      const outcome: JobRunOutcome = failed ? 'failed' : result === 'skipped' ? 'skipped' : 'succeeded';
      const error = failed ? messageOf(result) : null;
      return {
        job: row,
        run: { startedAt, durationMs, outcome, error },
        next: nextOf(h, row.attempt, outcome, result instanceof PermanentJobError),
      };
    });
    const recorded = await finishJobs(this.db, finishes);
    let retryAt: number | undefined;
    const now = Date.now();
    for (const { job, run, next } of finishes) {
      this.metrics?.jobRuns.inc({ kind: h.kind, outcome: run.outcome });
      const fields = { jobId: job.id, kind: h.kind, attempt: job.attempt, outcome: run.outcome, status: next.status };
      if (!recorded.has(job.id)) {
        this.logger?.warn(fields, 'job run result dropped: the job was cancelled, or its claim lapsed and another worker took it');
        continue;
      }
      if (run.outcome === 'failed') this.logger?.warn({ ...fields, error: run.error }, 'job run failed');
      else this.logger?.debug(fields, 'job run done');
      const wait = next.status === 'retry_scheduled' ? next.waitMs : 'recurAfterMs' in next ? next.recurAfterMs : undefined;
      if (wait !== undefined) retryAt = Math.min(retryAt ?? Number.POSITIVE_INFINITY, now + wait);
    }
    return retryAt === undefined ? {} : { retryAt };
  }
}

/**
 * While a run lasts, its jobs' leases are extended every third of the lease, so only a dead or
 * frozen worker's claim lapses, however long a batch takes. stop() waits for an extension in
 * flight: the run's record is guarded by the lease it wrote last.
 */
function heartbeatOf(db: Db, rows: readonly ClaimedJob[], leaseMs: number, logger: Logger | undefined): { stop(): Promise<void> } {
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(
    () => {
      beating = beating.then(async () => {
        try {
          const leases = await extendLeases(db, rows, leaseMs);
          for (const row of rows) row.lease = leases.get(row.id) ?? row.lease;
        } catch (err) {
          logger?.warn({ err, kind: rows[0]?.kind }, 'jobs: extending a lease failed; the run goes on under the old one');
        }
      });
    },
    Math.max(1000, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await beating;
    },
  };
}

/**
 * Groups claimed rows (oldest due first) into runs: each job of a one-at-a-time kind alone, a batch
 * kind's jobs in batches of its size; runs in the order of their oldest job.
 */
function unitsOf(rows: readonly ClaimedJob[], kinds: readonly ClaimKind[]): ClaimedJob[][] {
  const size = new Map(kinds.map((k) => [k.kind, k.batch ?? 1]));
  const units: ClaimedJob[][] = [];
  const open = new Map<string, ClaimedJob[]>();
  for (const row of rows) {
    const max = size.get(row.kind) ?? 1;
    let unit = open.get(row.kind);
    if (!unit || unit.length >= max) {
      unit = [];
      units.push(unit);
      if (max > 1) open.set(row.kind, unit);
    }
    unit.push(row);
  }
  return units;
}

/** One result per row: the handler's, or the Error its run (or its payload) failed with. */
async function runAll(h: JobHandler<unknown>, rows: readonly ClaimedJob[]): Promise<Array<JobResult | Error>> {
  const results: Array<JobResult | Error> = new Array(rows.length);
  const jobs: Array<Job<unknown>> = [];
  const at: number[] = [];
  rows.forEach((row, i) => {
    try {
      const payload = h.parse(JSON.parse(row.payload));
      jobs.push({ id: row.id, kind: row.kind, businessId: row.businessId, payload, attempt: row.attempt, runAt: row.runAt });
      at.push(i);
    } catch (err) {
      results[i] = new PermanentJobError(`payload refused: ${messageOf(err)}`);
    }
  });
  if (jobs.length === 0) return results;
  let ran: Array<JobResult | Error>;
  try {
    ran = h.runBatch ? await h.runBatch(jobs) : [await h.run(jobs[0]!)];
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    ran = jobs.map(() => e);
  }
  at.forEach((i, k) => {
    results[i] = k < ran.length ? ran[k] : new Error('the batch gave no result for this job');
  });
  return results;
}

function nextOf(h: JobHandler<unknown>, attempt: number, outcome: JobRunOutcome, permanent: boolean): JobNext {
  const step =
    outcome !== 'failed' ? { status: outcome } : permanent ? { status: 'failed' as const } : afterFailure(attempt, h.retryDelaysMs);
  if (step.status === 'retry_scheduled' || h.everyMs === undefined) return step;
  return { status: step.status, recurAfterMs: h.everyMs };
}

/** A short text for the attempt record: the message only, never a stack. */
function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.slice(0, 300);
}
