import type { RateLimitDecision, RateLimitStore } from '../../src/rate-limit/store.ts';
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store.ts';

/**
 * The real in-process store with every limit multiplied: suites that walk every route or race 50
 * requests with one key test other rules than the limiter, which test/rate-limit.test.ts covers
 * with the real limits. The hook, its headers and the store still run on every request.
 */
export class GenerousRateLimitStore implements RateLimitStore {
  readonly name = 'memory';
  constructor(
    private readonly inner: RateLimitStore = new MemoryRateLimitStore(),
    private readonly factor = 1000,
  ) {}

  hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    return this.inner.hit(key, limit * this.factor, windowMs);
  }

  async forget(key: string, counted: string): Promise<void> {
    await this.inner.forget?.(key, counted);
  }

  ready(timeoutMs: number): Promise<boolean> {
    return this.inner.ready(timeoutMs);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
