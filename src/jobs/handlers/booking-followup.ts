import type { Db } from '../../store/db.ts';
import { BOOKING_FOLLOWUP_KIND, findEvent, type StoredEvent } from '../../store/booking-events.ts';
import type { Job, JobHandler, JobResult } from '../handler.ts';
import { PermanentJobError } from '../handler.ts';

export { BOOKING_FOLLOWUP_KIND };

/** How many due follow-ups one slot takes at once (one claim and one record for all of them). */
export const FOLLOWUP_BATCH = 10;

interface Payload {
  bookingId: string;
  sequence: number;
}

/**
 * One thing a booking event causes after it is committed (the guest's messages, an offer to the
 * waitlist). Each runs in its own transaction and is idempotent: a follow-up run again after a
 * crash finds its work already written (unique keys) and writes nothing twice.
 */
export interface BookingFollowup {
  readonly name: string;
  run(db: Db, event: StoredEvent): Promise<void>;
}

/**
 * The job every booking event plans in the statement that writes it (store/booking-events.ts):
 * the event row is the outbox row of everything it causes, so nothing the change must cause can be
 * lost, and the booking write pays one more row, not a read of settings it does not need.
 */
export function bookingFollowupHandler(deps: { db: Db; followups: readonly BookingFollowup[] }): JobHandler<Payload> {
  const run = async (job: Job<Payload>): Promise<JobResult> => {
    const event = await findEvent(deps.db, job.payload.bookingId, job.payload.sequence);
    // The booking (and its events) went with its business: nothing is left to tell anyone.
    if (!event) return 'skipped';
    for (const f of deps.followups) await f.run(deps.db, event);
    return undefined;
  };
  return {
    kind: BOOKING_FOLLOWUP_KIND,
    retryDelaysMs: [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000],
    leaseMs: 120_000,
    parse(p) {
      const { bookingId, sequence } = p as Partial<Payload>;
      if (typeof bookingId !== 'string' || typeof sequence !== 'number') throw new PermanentJobError('not a booking event');
      return { bookingId, sequence };
    },
    run,
    // A burst of bookings shares its follow-ups' claims and records; each still runs on its own.
    batchSize: FOLLOWUP_BATCH,
    async runBatch(jobs) {
      const results: Array<JobResult | Error> = [];
      for (const job of jobs) results.push(await run(job).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err)))));
      return results;
    },
  };
}
