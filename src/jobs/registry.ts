import type { JobHandler, JobQueue } from './handler.ts';

/**
 * The kinds one worker runs, each registered once (src/jobs/handlers/index.ts registers them all,
 * as supabase/storage's events/workers.ts does). A kind registered twice is a programming error
 * caught at start, not two handlers racing for the same jobs.
 */
export class JobRegistry {
  private readonly byKind = new Map<string, JobHandler<unknown>>();
  private readonly ownQueues = new Map<string, JobQueue>();

  register<P>(handler: JobHandler<P>): this {
    this.claimKind(handler.kind);
    this.byKind.set(handler.kind, handler as JobHandler<unknown>);
    return this;
  }

  /** A kind whose rows live in a table of their own (webhook deliveries), claimed by its queue. */
  registerQueue(queue: JobQueue): this {
    this.claimKind(queue.kind);
    this.ownQueues.set(queue.kind, queue);
    return this;
  }

  get handlers(): ReadonlyMap<string, JobHandler<unknown>> {
    return this.byKind;
  }

  get queues(): readonly JobQueue[] {
    return [...this.ownQueues.values()];
  }

  private claimKind(kind: string): void {
    if (this.byKind.has(kind) || this.ownQueues.has(kind)) throw new Error(`job kind ${kind} is registered twice`);
  }
}
