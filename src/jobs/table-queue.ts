import type { Logger } from 'pino';
import { afterFailure } from '../domain/jobs/retry.ts';
import type { Metrics } from '../metrics.ts';
import type { Db } from '../store/db.ts';
import {
  JOBS_CHANNEL,
  claimJobs,
  ensureRecurringJob,
  finishJob,
  releaseJob,
  type ClaimedJob,
  type JobNext,
  type JobRunOutcome,
} from '../store/jobs.ts';
import { PermanentJobError, type ClaimedWork, type JobHandler, type JobQueue } from './handler.ts';

/** The dedupe key of a recurring kind's one live job. */
export const recurringKey = (kind: string): string => `recurring:${kind}`;

/** The job table as one of the worker's queues: every registered handler's jobs. */
export class TableQueue implements JobQueue {
  readonly kind = 'jobs';
  readonly channel = JOBS_CHANNEL;
  private readonly kinds: Array<{ kind: string; leaseMs: number }>;

  constructor(
    private readonly db: Db,
    private readonly handlers: ReadonlyMap<string, JobHandler<unknown>>,
    private readonly logger?: Logger | undefined,
    private readonly metrics?: Metrics | undefined,
  ) {
    this.kinds = [...handlers.values()].map((h) => ({ kind: h.kind, leaseMs: h.leaseMs }));
  }

  async start(): Promise<void> {
    for (const h of this.handlers.values()) if (h.everyMs !== undefined) await ensureRecurringJob(this.db, h.kind, recurringKey(h.kind));
  }

  async claim(limit: number): Promise<ClaimedWork[]> {
    const rows = await claimJobs(this.db, this.kinds, limit);
    return rows.map((row) => ({
      label: { jobId: row.id, kind: row.kind, attempt: row.attempt },
      run: () => this.runOne(row),
      release: () => releaseJob(this.db, row),
    }));
  }

  private async runOne(row: ClaimedJob): Promise<{ retryAt?: number | undefined }> {
    const h = this.handlers.get(row.kind)!;
    const startedAt = new Date();
    const t0 = performance.now();
    let outcome: JobRunOutcome;
    let error: string | null = null;
    let permanent = false;
    try {
      let payload: unknown;
      try {
        payload = h.parse(JSON.parse(row.payload));
      } catch (err) {
        throw new PermanentJobError(`payload refused: ${messageOf(err)}`);
      }
      const result = await h.run({
        id: row.id,
        kind: row.kind,
        businessId: row.businessId,
        payload,
        attempt: row.attempt,
        runAt: row.runAt,
      });
      outcome = result === 'skipped' ? 'skipped' : 'succeeded';
    } catch (err) {
      outcome = 'failed';
      error = messageOf(err);
      permanent = err instanceof PermanentJobError;
    }
    const next = nextOf(h, row.attempt, outcome, permanent);
    const recorded = await finishJob(this.db, row, { startedAt, durationMs: Math.round(performance.now() - t0), outcome, error }, next);
    this.metrics?.jobRuns.inc({ kind: row.kind, outcome });
    const fields = { jobId: row.id, kind: row.kind, attempt: row.attempt, outcome, status: next.status };
    if (recorded === 'lost') {
      this.logger?.warn(fields, 'job run result dropped: the job was cancelled, or its claim lapsed and another worker took it');
      return {};
    }
    if (outcome === 'failed') this.logger?.warn({ ...fields, error }, 'job run failed');
    else this.logger?.debug(fields, 'job run done');
    if (next.status === 'retry_scheduled') return { retryAt: Date.now() + next.waitMs };
    if ('recurAfterMs' in next) return { retryAt: Date.now() + next.recurAfterMs };
    return {};
  }
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
