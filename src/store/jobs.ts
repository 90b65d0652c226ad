import type { Queryable } from './db.ts';

/** The channel a committed transaction that planned a job notifies; the job worker listens on it. */
export const JOBS_CHANNEL = 'jobs';

export type JobStatus = 'pending' | 'running' | 'retry_scheduled' | 'succeeded' | 'skipped' | 'failed' | 'cancelled';
/** How one run ended, as job_attempts records it. */
export type JobRunOutcome = 'succeeded' | 'skipped' | 'failed';

export interface PlannedJob {
  kind: string;
  /** the business the work is for; null for the server's own work (housekeeping) */
  businessId: string | null;
  /** JSON-serialisable; what the handler needs to find its work again (ids, not copies of state) */
  payload?: unknown;
  /** due now when omitted: the database's clock, the one every worker compares with */
  runAt?: Date | undefined;
  /** at most one live (pending, running or retry_scheduled) job per key; a second plan is ignored */
  dedupeKey?: string | undefined;
}

/**
 * Plans a job in the caller's transaction: it exists, and wakes the workers, only if that
 * transaction commits (pg_notify is delivered at commit; a rollback plans and wakes nothing).
 * Returns the job's id, or null when a live job with the same dedupe key already exists.
 */
export async function planJob(tx: Queryable, job: PlannedJob): Promise<string | null> {
  const r = await tx.query<{ id: string }>(
    `WITH planned AS (
       INSERT INTO jobs (kind, business_id, payload, dedupe_key, run_at)
       VALUES ($1, $2, $3::jsonb, $4, COALESCE($5::timestamptz, now()))
       ON CONFLICT DO NOTHING
       RETURNING id
     ), wake AS (
       SELECT pg_notify('${JOBS_CHANNEL}', '') FROM planned
     )
     SELECT id FROM planned, (SELECT count(*) FROM wake) AS woken`,
    [job.kind, job.businessId, JSON.stringify(job.payload ?? {}), job.dedupeKey ?? null, job.runAt ?? null],
  );
  return r.rows[0]?.id ?? null;
}

/**
 * Cancels the live job with this key, in the caller's transaction (a booking cancelled before its
 * reminder). A job already running is cancelled too: its run's result is then dropped, and a
 * handler that must not act on cancelled work re-reads its state when it runs. Returns whether one was.
 */
export async function cancelJob(tx: Queryable, dedupeKey: string): Promise<boolean> {
  const r = await tx.query(
    `UPDATE jobs SET status = 'cancelled', locked_until = NULL, finished_at = now()
      WHERE dedupe_key = $1 AND status IN ('pending', 'running', 'retry_scheduled')`,
    [dedupeKey],
  );
  return r.rowCount > 0;
}

/** One job a worker holds the lease of. */
export interface ClaimedJob {
  id: string;
  kind: string;
  businessId: string | null;
  /** the payload's JSON text as planned */
  payload: string;
  /** the run about to be made: the row's attempts + 1 */
  attempt: number;
  /** the lease as the database wrote it (exact text), the guard of every later write */
  lease: string;
  runAt: Date;
  dedupeKey: string | null;
}

/**
 * Claims up to `limit` due jobs of the given kinds (each with its own lease) in one short
 * statement, committed before any work starts: pending and retry rows whose time has come, and
 * running rows whose lease lapsed because their worker died. SKIP LOCKED lets concurrent workers
 * claim disjoint rows without waiting; the lease hides a claimed row from the others until it
 * lapses. A kind no handler of this worker knows is never claimed (an older process in a rolling
 * deploy leaves a new kind to the new processes).
 */
export async function claimJobs(
  q: Queryable,
  kinds: ReadonlyArray<{ kind: string; leaseMs: number }>,
  limit: number,
): Promise<ClaimedJob[]> {
  if (kinds.length === 0 || limit <= 0) return [];
  const r = await q.query<{
    id: string;
    kind: string;
    business_id: string | null;
    payload: string;
    attempts: number;
    lease: string;
    run_at: Date;
    dedupe_key: string | null;
  }>(
    `WITH kinds AS (
       SELECT * FROM unnest($1::text[], $2::int[]) AS k(kind, lease_ms)
     ), due AS (
       SELECT j.id, k.lease_ms FROM jobs j JOIN kinds k ON k.kind = j.kind
        WHERE j.status IN ('pending', 'retry_scheduled', 'running')
          AND j.run_at <= now()
          AND (j.locked_until IS NULL OR j.locked_until <= now())
        ORDER BY j.run_at
        LIMIT $3
        FOR UPDATE OF j SKIP LOCKED
     )
     UPDATE jobs j
        SET status = 'running', locked_until = clock_timestamp() + due.lease_ms * interval '1 millisecond'
       FROM due
      WHERE j.id = due.id
     RETURNING j.id, j.kind, j.business_id, j.payload::text AS payload, j.attempts, j.locked_until::text AS lease, j.run_at, j.dedupe_key`,
    [kinds.map((k) => k.kind), kinds.map((k) => Math.round(k.leaseMs)), limit],
  );
  return r.rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    businessId: row.business_id,
    payload: row.payload,
    attempt: row.attempts + 1,
    lease: row.lease,
    runAt: row.run_at,
    dedupeKey: row.dedupe_key,
  }));
}

export interface JobRunRecord {
  startedAt: Date;
  durationMs: number;
  outcome: JobRunOutcome;
  /** short, for the attempt record and the job row; never a secret or a guest's address */
  error: string | null;
}

export type JobNext =
  | { status: 'succeeded' | 'skipped' | 'failed' }
  | { status: 'retry_scheduled'; waitMs: number }
  /** a recurring job: this one ends as `ended`, and its next run is planned `afterMs` from now */
  | { status: 'succeeded' | 'skipped' | 'failed'; recurAfterMs: number };

/**
 * Records run `job.attempt` and the job's next state in one statement (so both or neither), only
 * while the job still carries this worker's lease: a worker whose lease lapsed and was taken over,
 * or whose job was cancelled meanwhile, finds nothing to update and its result is dropped ('lost').
 * A recurring job's next run is planned by the same statement, so a crash cannot lose the series.
 */
export async function finishJob(
  q: Queryable,
  job: Pick<ClaimedJob, 'id' | 'attempt' | 'lease'>,
  run: JobRunRecord,
  next: JobNext,
): Promise<'recorded' | 'lost'> {
  const recurAfterMs = 'recurAfterMs' in next ? next.recurAfterMs : null;
  const waitMs = next.status === 'retry_scheduled' ? next.waitMs : 0;
  const r = await q.query(
    `WITH upd AS (
       UPDATE jobs
          SET status = $3, attempts = $2, last_error = $6, locked_until = NULL,
              run_at = CASE WHEN $3 = 'retry_scheduled' THEN now() + $8 * interval '1 millisecond' ELSE run_at END,
              finished_at = CASE WHEN $3 = 'retry_scheduled' THEN NULL ELSE now() END
        WHERE id = $1 AND status = 'running' AND attempts = $2 - 1 AND locked_until = $9::timestamptz
       RETURNING id, kind, business_id, payload, dedupe_key
     ), ins AS (
       INSERT INTO job_attempts (job_id, attempt, started_at, duration_ms, outcome, error)
       SELECT id, $2, $4, $5, $7, $6 FROM upd
     ), again AS (
       INSERT INTO jobs (kind, business_id, payload, dedupe_key, run_at)
       SELECT kind, business_id, payload, dedupe_key, now() + $10 * interval '1 millisecond' FROM upd
        WHERE $10::int IS NOT NULL
       ON CONFLICT DO NOTHING
       RETURNING 1
     )
     SELECT 1 FROM upd, (SELECT count(*) FROM again) AS recurred`,
    [job.id, job.attempt, next.status, run.startedAt, run.durationMs, run.error, run.outcome, waitMs, job.lease, recurAfterMs],
  );
  return r.rows.length > 0 ? 'recorded' : 'lost';
}

/** Gives a held job back untouched (a worker stopping before it started the run). */
export async function releaseJob(q: Queryable, job: Pick<ClaimedJob, 'id' | 'lease'>): Promise<void> {
  await q.query(`UPDATE jobs SET locked_until = NULL WHERE id = $1 AND status = 'running' AND locked_until = $2::timestamptz`, [
    job.id,
    job.lease,
  ]);
}

/**
 * Makes sure a recurring job of this kind exists (one per key across every worker): the first
 * worker to start plans it due now; later starts find it and change nothing.
 */
export async function ensureRecurringJob(q: Queryable, kind: string, dedupeKey: string): Promise<void> {
  await q.query(
    `INSERT INTO jobs (kind, business_id, dedupe_key, run_at) VALUES ($1, NULL, $2, now())
     ON CONFLICT DO NOTHING`,
    [kind, dedupeKey],
  );
}

/**
 * Deletes jobs (their attempts cascade) that ended more than `days` days ago, in batches so that
 * no single statement holds many locks. Live jobs are never touched. Returns how many went.
 */
export async function purgeEndedJobs(q: Queryable, days = 30, batch = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await q.query(
      `DELETE FROM jobs WHERE id IN (
         SELECT id FROM jobs WHERE finished_at < now() - $1 * interval '1 day' LIMIT $2)`,
      [days, batch],
    );
    total += r.rowCount;
    if (r.rowCount < batch) return total;
  }
}
