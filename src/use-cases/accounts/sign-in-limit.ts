import { AppError } from '../../domain/errors.ts';
import { withTimeout } from '../../rate-limit/fail-open.ts';
import type { RateLimitStore } from '../../rate-limit/store.ts';

/**
 * Sign-in attempts per rolling 15 minutes, counted in the shared rate-limit store (so the limits
 * hold across instances with Redis):
 * - 10 per email from one client address: one attacker guessing one account's password;
 * - 100 per email from all addresses together: many addresses guessing one account. It is high so
 *   that someone who only knows an owner's email cannot lock them out from one address;
 * - 50 per client address: one address trying many accounts.
 * Every attempt counts, successful ones too (not counting successes would need a read before the
 * count, and a right guess would then pass where a wrong one is refused). A store that fails or is
 * slow lets the attempt through (the limiter fails open, as the public API's does), and the
 * password hash still makes each guess cost ~0.1 s.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_PER_EMAIL_AND_ADDRESS = 10;
export const SIGN_IN_PER_EMAIL = 100;
export const SIGN_IN_PER_ADDRESS = 50;

export async function checkSignInLimit(
  store: RateLimitStore,
  who: { email: string; address: string },
  timeoutMs: number,
  onStoreError: (err: unknown) => void,
): Promise<void> {
  const checks: Array<[string, number]> = [
    [`signin-email-address:${who.email}|${who.address}`, SIGN_IN_PER_EMAIL_AND_ADDRESS],
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
