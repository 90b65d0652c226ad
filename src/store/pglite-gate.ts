/**
 * PGlite is one connection: every statement of the API and of the job worker in this process waits
 * its turn. The gate lets a waiting request's statement go before the worker's (a burst of 10,000
 * reminders must not slow bookings), but never keeps background work waiting longer than
 * BACKGROUND_MAX_WAIT_MS while requests keep coming, so the worker cannot starve.
 *
 * Every statement also starts in a turn of the event loop of its own (setImmediate). PGlite runs a
 * statement synchronously in this thread, so without that a request read from a socket ran all its
 * statements in the same microtask drain, and the next waiter after it: the server took requests in
 * rounds (everything one poll had read, one after the other) and read nothing new until a round
 * ended. A request sent just after a poll then waited out the whole round before it was even read,
 * and at 50 creates in flight rounds of 0.4-1.3 s put the p99 at two to ten times the p50
 * (docs/performance.md, "Creates at 50 in flight with 2,000 bookings (issue 26)"). With the turn, the
 * loop reads what arrived meanwhile, those requests queue here in arrival order, and who goes next
 * is chosen after that read. The cost is one loop turn per statement, a few microseconds.
 */
export const BACKGROUND_MAX_WAIT_MS = 20;

export class PgliteGate {
  private busy = false;
  private readonly fore: Array<() => void> = [];
  private readonly back: Array<{ go: () => void; since: number }> = [];

  async run<T>(background: boolean, fn: () => Promise<T>): Promise<T> {
    if (this.busy) {
      // woken by next(), in a turn of its own, which hands the gate over without freeing it
      await new Promise<void>((go) => {
        if (background) this.back.push({ go, since: performance.now() });
        else this.fore.push(go);
      });
    } else {
      this.busy = true;
      await new Promise<void>((turn) => setImmediate(turn));
    }
    try {
      return await fn();
    } finally {
      setImmediate(() => this.next());
    }
  }

  private next(): void {
    const oldest = this.back[0];
    const backFirst = oldest !== undefined && (this.fore.length === 0 || performance.now() - oldest.since >= BACKGROUND_MAX_WAIT_MS);
    const go = backFirst ? this.back.shift()?.go : this.fore.shift();
    if (go) go();
    else this.busy = false;
  }
}
