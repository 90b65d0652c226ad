import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One registry per process part (the app, a worker) rather than prom-client's global one, so that
 * several apps in one test process do not share or re-register metrics. The app serves its own
 * registry at GET /metrics; a worker running inside the API registers into the app's.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route, method and status code',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route, method and status code',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly rateLimitRejections = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused with 429 rate_limit.exceeded, by route group and tier',
    labelNames: ['group', 'tier'] as const,
    registers: [this.registry],
  });

  readonly rateLimitFailOpen = new Counter({
    name: 'rate_limit_fail_open_total',
    help: 'Requests let through because the rate-limit store failed or was slow',
    labelNames: ['store', 'reason'] as const,
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome (success, timeout, network_error, http_error)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly jobRuns = new Counter({
    name: 'job_runs_total',
    help: 'Runs of jobs of the job table (docs/jobs.md) by kind and outcome (succeeded, skipped, failed); webhook attempts are webhook_attempts_total',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly bookingAttempts = new Counter({
    name: 'booking_slot_attempts_total',
    help: 'Booking attempts on one staff member or session by outcome: booked, refused (by the database), answered_in_process (by an earlier attempt of this process on the same time), failed',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /** Set by whoever can count the backlog (the app or a worker), read at scrape time. */
  private backlogSource: (() => Promise<number>) | undefined;

  readonly outboxBacklog = new Gauge({
    name: 'webhook_outbox_backlog',
    help: 'Webhook deliveries not yet final (pending, processing, retry_scheduled)',
    registers: [this.registry],
    collect: async () => {
      if (this.backlogSource) this.outboxBacklog.set(await this.backlogSource());
    },
  });

  setBacklogSource(source: () => Promise<number>): void {
    this.backlogSource = source;
  }
}
