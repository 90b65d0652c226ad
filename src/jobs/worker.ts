import type { Logger } from 'pino';
import type { Db } from '../store/db.ts';
import type { ClaimedWork, JobQueue } from './handler.ts';

/** Runs one worker has in flight at most: a slow receiver or mail server holds one slot, not the worker. */
export const DEFAULT_CONCURRENCY = 8;
/** The safety net under LISTEN/NOTIFY: a lost notification or another worker's retry waits at most this. */
export const DEFAULT_POLL_MS = 1000;

export interface JobWorkerOptions {
  db: Db;
  /** the job table (TableQueue) and the kinds with rows of their own (webhook deliveries) */
  queues: readonly JobQueue[];
  logger?: Logger | undefined;
  concurrency?: number | undefined;
  pollIntervalMs?: number | undefined;
}

/**
 * The one background worker: claims due work from its queues (several workers, in one or many
 * processes, share them safely: every claim is a lease taken with FOR UPDATE SKIP LOCKED), runs each
 * claim in one of its slots, and looks again when a committed cause notifies its channel, when a
 * retry it scheduled falls due, and at a modest poll, so a lost notification delays work by at
 * most the poll interval. What a run does, how it is retried and recorded is the queue's.
 */
export class JobWorker {
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly inflight = new Set<Promise<void>>();
  private readonly unlisten: Array<() => Promise<void>> = [];
  private timer: NodeJS.Timeout | undefined;
  private filling = false;
  private again = false;
  /**
   * The queues that may have due work no claim has looked at yet (a notification on their channel,
   * a timer, a claim that came back full). A booking's NOTIFY on the webhook channel costs one claim
   * of the webhook queue, not one of every queue.
   */
  private readonly dirty = new Set<JobQueue>();
  private stopping = false;
  /** the queue the next fill asks first, so that a busy queue cannot starve the others */
  private first = 0;
  /** retry times this worker scheduled, so it wakes for them without polling */
  private retryTimes: number[] = [];

  constructor(private readonly opts: JobWorkerOptions) {
    this.concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
    this.pollMs = opts.pollIntervalMs ?? DEFAULT_POLL_MS;
  }

  async start(): Promise<void> {
    for (const q of this.opts.queues) await q.start?.();
    const channels = new Set(this.opts.queues.map((q) => q.channel));
    for (const channel of channels) this.unlisten.push(await this.opts.db.listen(channel, () => this.wake(channel)));
    this.wake();
  }

  /** Looks for due work now: in the queues of `channel` (a notification), else in all (a timer). */
  wake(channel?: string): void {
    if (this.stopping) return;
    for (const q of this.opts.queues) if (channel === undefined || q.channel === channel) this.dirty.add(q);
    this.kick();
  }

  private kick(): void {
    if (this.filling) {
      this.again = true;
      return;
    }
    void this.fill();
  }

  /**
   * Stops claiming and lets the runs in flight finish and be recorded (each queue cuts its own
   * work at a timeout, so this is bounded). A SIGKILL instead leaves claims that lapse after their lease.
   */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearTimeout(this.timer);
    for (const off of this.unlisten) {
      try {
        await off();
      } catch (err) {
        this.opts.logger?.warn({ err }, 'job worker: unlisten failed');
      }
    }
    while (this.filling || this.inflight.size > 0) {
      await Promise.allSettled([...this.inflight]);
      if (this.filling) await new Promise((r) => setTimeout(r, 5));
    }
    for (const q of this.opts.queues) await q.close?.();
  }

  private async fill(): Promise<void> {
    this.filling = true;
    try {
      do {
        this.again = false;
        await this.claimRound();
      } while (this.again && !this.stopping);
    } catch (err) {
      this.opts.logger?.error({ err }, 'job worker: claiming work failed; retrying at the next poll');
    } finally {
      this.filling = false;
      this.schedule();
    }
  }

  /** Claims until every slot is busy or no queue may have more due work. */
  private async claimRound(): Promise<void> {
    const queues = this.opts.queues;
    if (queues.length === 0) return;
    while (!this.stopping && this.inflight.size < this.concurrency && this.dirty.size > 0) {
      const start = this.first++ % queues.length;
      for (let i = 0; i < queues.length && !this.stopping; i++) {
        const q = queues[(start + i) % queues.length]!;
        if (!this.dirty.has(q)) continue;
        const want = this.concurrency - this.inflight.size;
        if (want <= 0) return;
        // Cleared before the claim: a notification that arrives during it marks the queue again.
        this.dirty.delete(q);
        let claimed: ClaimedWork[];
        try {
          claimed = await q.claim(want);
        } catch (err) {
          this.dirty.add(q);
          throw err;
        }
        for (const work of claimed) this.run(work);
        // A full claim may have left due work behind.
        if (claimed.length === want) this.dirty.add(q);
      }
    }
  }

  private run(work: ClaimedWork): void {
    const p = (this.stopping ? work.release().then(() => ({})) : work.run())
      .then((r: { retryAt?: number | undefined }) => {
        if (r.retryAt === undefined) return;
        this.retryTimes.push(r.retryAt);
        if (!this.filling) this.schedule();
      })
      .catch((err: unknown) => {
        // The claim stays until its lease lapses; then this run is made again.
        this.opts.logger?.error({ err, ...work.label }, 'job run could not be completed');
      })
      .finally(() => {
        this.inflight.delete(p);
        // A freed slot only needs a claim if the last one may have left due work behind.
        if (this.dirty.size > 0 && !this.stopping) this.kick();
      });
    this.inflight.add(p);
  }

  /** The next look: the earliest own retry, else the poll interval. */
  private schedule(): void {
    if (this.stopping) return;
    clearTimeout(this.timer);
    const now = Date.now();
    // A time that has passed was looked at by the fill that is scheduling now.
    this.retryTimes = this.retryTimes.filter((t) => t > now);
    let wait = this.pollMs;
    for (const t of this.retryTimes) wait = Math.min(wait, t - now + 5);
    this.timer = setTimeout(() => this.wake(), wait);
    this.timer.unref();
  }
}
