/**
 * At most `limit` operations per key at once in this process; the others wait in memory, first come
 * first served. Bookings use it per business, so that one business's burst holds at most that many
 * of the instance's pool connections and every other business still finds one free.
 */
export class KeyedLimit {
  private readonly running = new Map<string, { active: number; waiting: (() => void)[] }>();

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`limit must be a whole number >= 1, got ${limit}`);
  }

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    let slot = this.running.get(key);
    if (!slot) {
      slot = { active: 0, waiting: [] };
      this.running.set(key, slot);
    }
    if (slot.active >= this.limit) await new Promise<void>((resolve) => slot!.waiting.push(resolve));
    else slot.active++;
    try {
      return await fn();
    } finally {
      // The place passes straight to the next waiter, so a newcomer cannot overtake the queue.
      const next = slot.waiting.shift();
      if (next) next();
      else if (--slot.active === 0) this.running.delete(key);
    }
  }

  /** operations running or waiting for `key` (the tests read it) */
  load(key: string): { active: number; waiting: number } {
    const slot = this.running.get(key);
    return { active: slot?.active ?? 0, waiting: slot?.waiting.length ?? 0 };
  }
}
