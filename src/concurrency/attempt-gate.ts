/**
 * In-process coordination of booking attempts on one calendar (a staff member, or a group session).
 *
 * A popular opening draws many creates of one slot at once. Sent straight to the database, every
 * one of them holds a pool connection while it queues on the staff member's calendar lock, only to
 * learn that the slot went to the first; a burst of 50 then starves the pool for every other
 * business on the instance. Here an attempt waits in memory, without a connection, for the earlier
 * attempts of this process whose time overlaps its own, and learns from their outcome:
 * - an earlier attempt that booked an overlapping time (when the calendar is exclusive) has
 *   committed a booking the database would refuse this one for: the slot is gone;
 * - an earlier attempt refused for exactly the same time (the same slot, or a full session) would be
 *   refused again: the slot is gone;
 * - otherwise (it failed for its own reasons, or only touched a neighbouring time) this attempt
 *   asks the database itself, which keeps the last word across instances.
 * So the database sees at most one attempt per slot per instance at a time; the others are
 * answered from the winner's outcome as soon as it is known. An outcome shared here is never older
 * than the wait itself: it is exactly what the database would answer at that moment.
 */

export const SLOT_TAKEN = Symbol('slot taken');

export interface GateRange {
  from: number;
  to: number;
}

/** How an attempt ended; `answered_in_process`: by an earlier attempt's outcome, without running. */
export type Verdict = 'booked' | 'refused' | 'failed' | 'answered_in_process';

interface Attempt {
  range: GateRange;
  verdict: Promise<Verdict>;
}

export interface GateOptions {
  /** a booking excludes every overlapping one (a staff member); false for a session's seats */
  exclusive: boolean;
  /** the database's "taken" answer (an exclusion violation, a full session) */
  isRefusal(err: unknown): boolean;
}

const overlaps = (a: GateRange, b: GateRange): boolean => a.from < b.to && b.from < a.to;
const same = (a: GateRange, b: GateRange): boolean => a.from === b.from && a.to === b.to;

export class AttemptGate {
  private readonly inFlight = new Map<string, Set<Attempt>>();

  /**
   * `onVerdict`: told how every attempt ended (the metrics). `maxWaitMs`: an attempt waits at most
   * this long for the earlier ones, then asks the database itself, so one stuck attempt (a lock
   * held elsewhere, a slow pool) never holds up the others longer than the database would.
   */
  constructor(
    private readonly onVerdict: (verdict: Verdict) => void = () => {},
    private readonly maxWaitMs = 3000,
  ) {}

  /**
   * Runs `attempt` on calendar `key` for `range` once the earlier overlapping attempts of this
   * process have settled, or answers SLOT_TAKEN without running it when their outcome proves the
   * database would refuse it. A refusal of its own (opts.isRefusal) is answered SLOT_TAKEN too;
   * any other error is rethrown.
   */
  async run<T>(key: string, range: GateRange, opts: GateOptions, attempt: () => Promise<T>): Promise<T | typeof SLOT_TAKEN> {
    let attempts = this.inFlight.get(key);
    if (!attempts) {
      attempts = new Set();
      this.inFlight.set(key, attempts);
    }
    const earlier = [...attempts].filter((a) => overlaps(a.range, range));
    let settle!: (v: Verdict) => void;
    const me: Attempt = { range, verdict: new Promise<Verdict>((resolve) => (settle = resolve)) };
    attempts.add(me);
    let verdict: Verdict = 'failed';
    try {
      if (earlier.length > 0 && (await this.answeredBy(earlier, range, opts))) {
        verdict = 'answered_in_process';
        return SLOT_TAKEN;
      }
      try {
        const value = await attempt();
        verdict = 'booked';
        return value;
      } catch (err) {
        if (!opts.isRefusal(err)) throw err;
        verdict = 'refused';
        return SLOT_TAKEN;
      }
    } finally {
      settle(verdict);
      this.onVerdict(verdict);
      attempts.delete(me);
      if (attempts.size === 0) this.inFlight.delete(key);
    }
  }

  /** Whether the earlier attempts' outcomes, as they come within maxWaitMs, answer this one. */
  private async answeredBy(earlier: Attempt[], range: GateRange, opts: GateOptions): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const tooLong = new Promise<'too long'>((resolve) => {
      timer = setTimeout(() => resolve('too long'), this.maxWaitMs);
    });
    try {
      for (const before of earlier) {
        const v = await Promise.race([before.verdict, tooLong]);
        if (v === 'too long') return false;
        if ((v === 'booked' && opts.exclusive) || (v === 'refused' && same(before.range, range))) return true;
      }
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
