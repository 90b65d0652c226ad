/**
 * What a kind of background work is to the job worker (docs/jobs.md): a handler registered once by
 * kind. Adding a kind is a handler file in src/jobs/handlers/ and one line in
 * src/jobs/handlers/index.ts; use cases plan its jobs with `planJob(tx, …)` (src/store/jobs.ts)
 * in the transaction of their cause.
 */

/** One run of a job, as the handler sees it. */
export interface Job<P = unknown> {
  id: string;
  kind: string;
  businessId: string | null;
  payload: P;
  /** 1 for the first run; a run cut by a dead worker is made again under the same number */
  attempt: number;
  /** when it was due */
  runAt: Date;
}

/** `skipped`: the handler re-read its state and found nothing to do (a reminder of a cancelled booking). */
export type JobResult = undefined | 'skipped';

export interface JobHandler<P = unknown> {
  readonly kind: string;
  /**
   * The waits before runs 2, 3, … after a run that threw; after the last, the job ends `failed`.
   * Empty: one run only.
   */
  readonly retryDelaysMs: readonly number[];
  /**
   * How long a claim holds a job: longer than any run can take (cut your own I/O at a timeout
   * shorter than this), so only a dead or frozen worker's claim ever lapses; the job then runs
   * again under the same attempt number.
   */
  readonly leaseMs: number;
  /**
   * Recurring work: one live job of this kind across all workers, planned by the first worker to
   * start, and each run plans the next one this far ahead (after its retries, if it failed).
   */
  readonly everyMs?: number | undefined;
  /** Turns the stored payload (parsed JSON) into what run() takes; throw to fail the job for good. */
  parse(payload: unknown): P;
  /**
   * Does the work. Resolves: done (or 'skipped'). Throws: this run failed, retried by
   * retryDelaysMs; a PermanentJobError is not retried. It may run more than once for one job (after
   * a crash mid-run), so it re-reads the state it acts on and makes its effect idempotent.
   */
  run(job: Job<P>): Promise<JobResult>;
  /**
   * Jobs of this kind may run together, up to this many in one slot, through runBatch: one read
   * and one write for all of them where a run each costs statements each (a burst of reminders on
   * the embedded database's one connection). Unset: one job per run.
   */
  readonly batchSize?: number | undefined;
  /**
   * Runs several due jobs of this kind at once (batchSize): one result per job, in order, each what
   * run() would have resolved with, or the Error its run failed with (a PermanentJobError is not
   * retried). Rejecting fails every job of the batch. The same re-read and idempotence as run().
   */
  runBatch?(jobs: ReadonlyArray<Job<P>>): Promise<Array<JobResult | Error>>;
}

/** A failure no retry can mend (a payload that no longer names anything): the job ends `failed`. */
export class PermanentJobError extends Error {}

/**
 * A source of claimed work beside the job table: the webhook deliveries, whose rows in
 * webhook_deliveries are at once their job rows and their log (docs/decisions.md "Background
 * jobs"). The worker claims from every queue through the same slots, wake-ups and stop.
 */
export interface JobQueue {
  readonly kind: string;
  /** the NOTIFY channel a committed cause of this queue's work signals */
  readonly channel: string;
  start?(): Promise<void>;
  claim(limit: number): Promise<ClaimedWork[]>;
  close?(): Promise<void>;
}

export interface ClaimedWork {
  /** for log lines: ids only */
  readonly label: Record<string, unknown>;
  /** Makes the run and records it; resolves with when this worker should look again for its retry. */
  run(): Promise<{ retryAt?: number | undefined }>;
  /** Gives the claim back untouched (the worker is stopping). */
  release(): Promise<void>;
}
