import type { Logger } from 'pino';
import type { Channels } from '../../notify/channel.ts';
import type { Db } from '../../store/db.ts';
import { MESSAGE_SEND_KIND } from '../../store/messages.ts';
import { getServerSecret } from '../../store/server-settings.ts';
import { sendMessages } from '../../use-cases/messages/send.ts';
import type { Job, JobHandler } from '../handler.ts';
import { PermanentJobError } from '../handler.ts';

export interface MessageDeps {
  db: Db;
  channels: Channels;
  publicBaseUrl: string;
  mailFrom: string;
  /** NOTIFICATION_RETRY_DELAYS */
  retryDelaysMs: readonly number[];
  /** the claim's lease: longer than the channel's own timeouts (messageLeaseMs) */
  leaseMs: number;
  logger?: Logger | undefined;
}

/**
 * How many due sends one slot takes at once: in a burst of reminders, one read and one write for
 * 20 messages instead of five statements each (docs/performance.md, "Reminders"); a crash repeats
 * at most the batches in flight, each message once, with its Message-ID.
 */
export const MESSAGE_BATCH = 20;

/**
 * `message.send`: one attempt at one message row per run (several runs share a slot's statements: MESSAGE_BATCH), retried by NOTIFICATION_RETRY_DELAYS
 * (each run is a job_attempts row). The lease covers the channel's own timeouts (NOTIFICATION_TIMEOUT_MS,
 * messageLeaseMs), so only a dead worker's claim lapses, and the run made again
 * after it sends the same Message-ID.
 */
export function messageSendHandler(deps: MessageDeps): JobHandler<{ messageId: string }> {
  let secret: Promise<Buffer> | undefined;
  const send = {
    db: deps.db,
    channels: deps.channels,
    publicBaseUrl: deps.publicBaseUrl,
    mailFrom: deps.mailFrom,
    secret: () => (secret ??= getServerSecret(deps.db)),
  };
  const item = (job: Job<{ messageId: string }>) => ({ messageId: job.payload.messageId, last: job.attempt > deps.retryDelaysMs.length });
  return {
    kind: MESSAGE_SEND_KIND,
    retryDelaysMs: deps.retryDelaysMs,
    leaseMs: deps.leaseMs,
    parse(p) {
      const { messageId } = p as { messageId?: unknown };
      if (typeof messageId !== 'string') throw new PermanentJobError('no messageId');
      return { messageId };
    },
    async run(job) {
      const [result] = await sendMessages(send, [item(job)]);
      if (result instanceof Error) throw result;
      return result === 'skipped' ? 'skipped' : undefined;
    },
    batchSize: MESSAGE_BATCH,
    async runBatch(jobs) {
      const results = await sendMessages(send, jobs.map(item));
      return results.map((r) => (r instanceof Error ? r : r === 'skipped' ? 'skipped' : undefined));
    },
  };
}
