import { AppError } from '../../domain/errors.ts';
import { withTimeout } from '../../rate-limit/fail-open.ts';
import type { RateLimitStore } from '../../rate-limit/store.ts';

/**
 * Sign-in attempts per rolling 15 minutes: per email (guessing one account's password) and per
 * client address (trying many accounts). Counted in the shared rate-limit store, so the limits hold
 * across instances with Redis. Every attempt counts, successful ones too: the figures leave a real
 * person ample room. A store that fails or is slow lets the attempt through (the limiter fails open,
 * as the public API's does), and the password hash still makes each guess cost ~0.1 s.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_PER_EMAIL = 10;
export const SIGN_IN_PER_ADDRESS = 50;

export async function checkSignInLimit(
  store: RateLimitStore,
  who: { email: string; address: string },
  timeoutMs: number,
  onStoreError: (err: unknown) => void,
): Promise<void> {
  const checks: Array<[string, number]> = [
    [`signin-email:${who.email}`, SIGN_IN_PER_EMAIL],
    [`signin-address:${who.address}`, SIGN_IN_PER_ADDRESS],
  ];
  for (const [key, limit] of checks) {
    let decision: Awaited<ReturnType<RateLimitStore['hit']>>;
    try {
      decision = await withTimeout(store.hit(key, limit, SIGN_IN_WINDOW_MS), timeoutMs);
    } catch (err) {
      onStoreError(err);
      continue;
    }
    if (!decision.allowed) {
      const seconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
      throw new AppError(
        'rate_limit.exceeded',
        `Too many sign-in attempts; retry after ${seconds} s.`,
        { retryAfterSeconds: seconds },
        { 'retry-after': String(seconds) },
      );
    }
  }
}
