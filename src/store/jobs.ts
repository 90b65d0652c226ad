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

/** A kind a worker claims: its lease, and how many of its jobs one run takes (1 unless it runs batches). */
export interface ClaimKind {
  kind: string;
  leaseMs: number;
  batch?: number | undefined;
}

/**
 * Claims due jobs of the given kinds (each with its own lease) in one short statement, committed
 * before any work starts: pending and retry rows whose time has come, and running rows whose lease
 * lapsed because their worker died: up to `limit` runs, each one job of a kind run one at a time or
 * up to its batch size of a kind run in batches (the caller groups them the same way: oldest due
 * first, a kind's batches in the order of run_at and id). SKIP LOCKED lets concurrent workers claim
 * disjoint rows without waiting; the lease hides a claimed row from the others until it lapses. A
 * kind no handler of this worker knows is never claimed (an older process in a rolling deploy
 * leaves a new kind to the new processes).
 */
export async function claimJobs(q: Queryable, kinds: readonly ClaimKind[], limit: number): Promise<ClaimedJob[]> {
  if (kinds.length === 0 || limit <= 0) return [];
  const single = kinds.filter((k) => (k.batch ?? 1) <= 1);
  const batched = kinds.filter((k) => (k.batch ?? 1) > 1);
  const params: unknown[] = [limit];
  const due = (class_: readonly ClaimKind[], take: number): string => {
    params.push(
      class_.map((k) => k.kind),
      class_.map((k) => Math.round(k.leaseMs)),
      class_.map((k) => Math.max(1, k.batch ?? 1)),
      take,
    );
    const n = params.length;
    return `SELECT j.id, j.kind, j.run_at, k.lease_ms, k.batch
         FROM jobs j JOIN unnest($${n - 3}::text[], $${n - 2}::int[], $${n - 1}::int[]) AS k(kind, lease_ms, batch) ON k.kind = j.kind
        WHERE j.status IN ('pending', 'retry_scheduled', 'running')
          AND j.run_at <= now()
          AND (j.locked_until IS NULL OR j.locked_until <= now())
        ORDER BY j.run_at
        LIMIT $${n}
        FOR UPDATE OF j SKIP LOCKED`;
  };
  const parts: string[] = [];
  if (single.length > 0) parts.push(due(single, limit));
  if (batched.length > 0) parts.push(due(batched, limit * Math.max(...batched.map((k) => k.batch ?? 1))));
  // The candidates of both classes are grouped into runs (a batch kind's in batches of its size,
  // oldest first) and the `limit` runs with the oldest first job are taken: the rest are only
  // locked for this statement, so nothing is claimed that the caller's slots cannot take.
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
    `WITH ${parts.map((p, i) => `due${i} AS (${p})`).join(', ')},
     candidates AS (${parts.map((_, i) => `SELECT * FROM due${i}`).join(' UNION ALL ')}),
     grouped AS (
       SELECT id, run_at, lease_ms,
              CASE WHEN batch > 1 THEN kind || ' ' || ((row_number() OVER (PARTITION BY kind ORDER BY run_at, id) - 1) / batch)
                   ELSE id END AS unit
         FROM candidates
     ), ranked AS (
       SELECT id, lease_ms, unit, min(run_at) OVER (PARTITION BY unit) AS first_at FROM grouped
     ), due AS (
       SELECT id, lease_ms FROM (SELECT id, lease_ms, dense_rank() OVER (ORDER BY first_at, unit) AS rank FROM ranked) x
        WHERE rank <= $1
     )
     UPDATE jobs j
        SET status = 'running', locked_until = clock_timestamp() + due.lease_ms * interval '1 millisecond'
       FROM due
      WHERE j.id = due.id
     RETURNING j.id, j.kind, j.business_id, j.payload::text AS payload, j.attempts, j.locked_until::text AS lease, j.run_at, j.dedupe_key`,
    params,
  );
  return r.rows
    .map((row) => ({
      id: row.id,
      kind: row.kind,
      businessId: row.business_id,
      payload: row.payload,
      attempt: row.attempts + 1,
      lease: row.lease,
      runAt: new Date(row.run_at),
      dedupeKey: row.dedupe_key,
    }))
    .sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
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

/** One claimed job's run and what comes next, as finishJobs records it. */
export interface JobFinish {
  job: Pick<ClaimedJob, 'id' | 'attempt' | 'lease'>;
  run: JobRunRecord;
  next: JobNext;
}

/**
 * Records runs and each job's next state in one statement (so all or none), each only while its job
 * still carries this worker's lease: a worker whose lease lapsed and was taken over, or whose job
 * was cancelled meanwhile, finds nothing to update and that result is dropped (its id is missing
 * from the returned set). A recurring job's next run is planned by the same statement, so a crash
 * cannot lose the series. One statement for a batch of runs: in a burst of reminders each
 * statement counts.
 */
export async function finishJobs(q: Queryable, finishes: readonly JobFinish[]): Promise<Set<string>> {
  if (finishes.length === 0) return new Set();
  const col = <T>(f: (x: JobFinish) => T): T[] => finishes.map(f);
  const r = await q.query<{ id: string }>(
    `WITH r AS (
       SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::timestamptz[], $5::int[], $6::text[], $7::text[],
                            $8::int[], $9::text[], $10::int[])
         AS r(id, attempt, status, started_at, duration_ms, error, outcome, wait_ms, lease, recur_after_ms)
     ), upd AS (
       UPDATE jobs j
          SET status = r.status, attempts = r.attempt, last_error = r.error, locked_until = NULL,
              run_at = CASE WHEN r.status = 'retry_scheduled' THEN now() + r.wait_ms * interval '1 millisecond' ELSE j.run_at END,
              finished_at = CASE WHEN r.status = 'retry_scheduled' THEN NULL ELSE now() END
         FROM r
        WHERE j.id = r.id AND j.status = 'running' AND j.attempts = r.attempt - 1 AND j.locked_until = r.lease::timestamptz
       RETURNING j.id, j.kind, j.business_id, j.payload, j.dedupe_key, r.attempt, r.started_at, r.duration_ms, r.outcome,
                 r.error, r.recur_after_ms
     ), ins AS (
       INSERT INTO job_attempts (job_id, attempt, started_at, duration_ms, outcome, error)
       SELECT id, attempt, started_at, duration_ms, outcome, error FROM upd
     ), again AS (
       INSERT INTO jobs (kind, business_id, payload, dedupe_key, run_at)
       SELECT kind, business_id, payload, dedupe_key, now() + recur_after_ms * interval '1 millisecond' FROM upd
        WHERE recur_after_ms IS NOT NULL
       ON CONFLICT DO NOTHING
       RETURNING 1
     )
     SELECT id FROM upd, (SELECT count(*) FROM again) AS recurred`,
    [
      col((f) => f.job.id),
      col((f) => f.job.attempt),
      col((f) => f.next.status),
      col((f) => f.run.startedAt.toISOString()),
      col((f) => f.run.durationMs),
      col((f) => f.run.error),
      col((f) => f.run.outcome),
      col((f) => (f.next.status === 'retry_scheduled' ? f.next.waitMs : 0)),
      col((f) => f.job.lease),
      col((f) => ('recurAfterMs' in f.next ? f.next.recurAfterMs : null)),
    ],
  );
  return new Set(r.rows.map((row) => row.id));
}

/**
 * Extends the leases of jobs a live worker is still running (its heartbeat): a run longer than the
 * kind's lease — a batch of sends over a slow mail server — is not taken over while its worker
 * lives. Returns each extended job's new lease (the guard of its later writes); a job missing from
 * the map was cancelled or taken over.
 */
export async function extendLeases(
  q: Queryable,
  jobs: ReadonlyArray<Pick<ClaimedJob, 'id' | 'lease'>>,
  leaseMs: number,
): Promise<Map<string, string>> {
  if (jobs.length === 0) return new Map();
  const r = await q.query<{ id: string; lease: string }>(
    `UPDATE jobs j SET locked_until = clock_timestamp() + $3 * interval '1 millisecond'
       FROM unnest($1::text[], $2::text[]) AS r(id, lease)
      WHERE j.id = r.id AND j.status = 'running' AND j.locked_until = r.lease::timestamptz
     RETURNING j.id, j.locked_until::text AS lease`,
    [jobs.map((j) => j.id), jobs.map((j) => j.lease), Math.round(leaseMs)],
  );
  return new Map(r.rows.map((row) => [row.id, row.lease]));
}

/** Gives held jobs back untouched (a worker stopping before it started their run, or a claim its slots could not take). */
export async function releaseJobs(q: Queryable, jobs: ReadonlyArray<Pick<ClaimedJob, 'id' | 'lease'>>): Promise<void> {
  if (jobs.length === 0) return;
  await q.query(
    `UPDATE jobs j SET locked_until = NULL
       FROM unnest($1::text[], $2::text[]) AS r(id, lease)
      WHERE j.id = r.id AND j.status = 'running' AND j.locked_until = r.lease::timestamptz`,
    [jobs.map((j) => j.id), jobs.map((j) => j.lease)],
  );
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
