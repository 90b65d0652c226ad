import { AppError } from '../../domain/errors.ts';
import type { AccountLimiter } from '../../rate-limit/account-limiter.ts';

/**
 * Sign-in attempts per rolling 15 minutes, counted in the shared rate-limit store (so the limits
 * hold across instances with Redis):
 * - 10 per email from one client address: one attacker guessing one account's password;
 * - 100 per email from all addresses together: many addresses guessing one account. It is high so
 *   that someone who only knows an owner's email cannot lock them out from one address;
 * - 50 per client address: one address trying many accounts.
 * Every attempt counts, successful ones too (not counting successes would need a read before the
 * count, and a right guess would then pass where a wrong one is refused). A store that fails or is
 * slow does not lift the limits: the AccountLimiter counts in this process instead.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_PER_EMAIL_AND_ADDRESS = 10;
export const SIGN_IN_PER_EMAIL = 100;
export const SIGN_IN_PER_ADDRESS = 50;

export async function checkSignInLimit(limiter: AccountLimiter, who: { email: string; address: string }): Promise<void> {
  const refused = await limiter.hitAll(
    [
      [`signin-email-address:${who.email}|${who.address}`, SIGN_IN_PER_EMAIL_AND_ADDRESS],
      [`signin-email:${who.email}`, SIGN_IN_PER_EMAIL],
      [`signin-address:${who.address}`, SIGN_IN_PER_ADDRESS],
    ],
    SIGN_IN_WINDOW_MS,
  );
  if (refused) {
    const seconds = Math.max(1, Math.ceil(refused.resetMs / 1000));
    throw new AppError(
      'rate_limit.exceeded',
      `Too many sign-in attempts; retry after ${seconds} s.`,
      { retryAfterSeconds: seconds },
      { 'retry-after': String(seconds) },
    );
  }
}
