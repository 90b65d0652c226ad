/**
 * PGlite is one connection: every statement of the API and of the job worker in this process waits
 * its turn. The gate lets a waiting request's statement go before the worker's (a burst of 10,000
 * reminders must not slow bookings), but never keeps background work waiting longer than
 * BACKGROUND_MAX_WAIT_MS while requests keep coming, so the worker cannot starve.
 */
export const BACKGROUND_MAX_WAIT_MS = 20;

export class PgliteGate {
  private busy = false;
  private readonly fore: Array<() => void> = [];
  private readonly back: Array<{ go: () => void; since: number }> = [];

  async run<T>(background: boolean, fn: () => Promise<T>): Promise<T> {
    if (this.busy) {
      // woken by next(), which hands the gate over without freeing it
      await new Promise<void>((go) => {
        if (background) this.back.push({ go, since: performance.now() });
        else this.fore.push(go);
      });
    } else {
      this.busy = true;
    }
    try {
      return await fn();
    } finally {
      this.next();
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
