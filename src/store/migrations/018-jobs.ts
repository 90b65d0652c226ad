// The generic job table (docs/decisions.md "Background jobs"): one row per piece of background work
// of a kind a handler is registered for (src/jobs/), planned in the transaction of its cause,
// claimed with a lease (FOR UPDATE SKIP LOCKED) and retried by the handler's own policy; every run
// is one row of job_attempts. Webhook deliveries keep their own rows (webhook_deliveries is their
// job row and their log): the worker claims them through the webhook handler's queue.
export default /* sql */ `
CREATE TABLE jobs (
  id text PRIMARY KEY DEFAULT ('job_' || replace(gen_random_uuid()::text, '-', '')),
  kind text NOT NULL,
  -- null for work of the whole server (housekeeping); a business's jobs go with it
  business_id text REFERENCES businesses(id) ON DELETE CASCADE,
  payload jsonb NOT NULL DEFAULT '{}',
  -- at most one live job per key (a recurring job, a reminder that a move replaces)
  dedupe_key text,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'running', 'retry_scheduled', 'succeeded', 'skipped', 'failed', 'cancelled')),
  run_at timestamptz NOT NULL DEFAULT now(),
  -- a worker's claim; a dead worker's claim lapses and the run is made again
  locked_until timestamptz,
  -- runs recorded so far; the run in flight is attempts + 1
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE status IN ('pending', 'running', 'retry_scheduled');
CREATE UNIQUE INDEX jobs_live_key_idx ON jobs (dedupe_key) WHERE status IN ('pending', 'running', 'retry_scheduled');
CREATE INDEX jobs_business_idx ON jobs (business_id, kind, created_at);
CREATE INDEX jobs_finished_idx ON jobs (finished_at) WHERE finished_at IS NOT NULL;

CREATE TABLE job_attempts (
  job_id text NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  attempt integer NOT NULL CHECK (attempt >= 1),
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('succeeded', 'skipped', 'failed')),
  error text,
  PRIMARY KEY (job_id, attempt)
);
`;
