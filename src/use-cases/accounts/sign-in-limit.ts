import { AppError } from '../../domain/errors.ts';
import { withTimeout } from '../../rate-limit/fail-open.ts';
import type { RateLimitStore } from '../../rate-limit/store.ts';

/**
 * Limits on the account routes that take no credential (sign-in, invitation acceptance, password
 * reset), counted in the shared rate-limit store (so they hold across instances with Redis). Every
 * attempt counts, successful ones too (not counting successes would need a read before the count,
 * and a right guess would then pass where a wrong one is refused). A store that fails or is slow
 * lets the attempt through (the limiter fails open, as the public API's does); a password guess
 * still costs a scrypt hash, and a reset mail still goes only to the account's own address.
 */

/** One counter of an action: its key in the store and how many the window allows. */
export interface AttemptCounter {
  key: string;
  limit: number;
}

/** Counts one attempt on every counter, in order; the first that is full answers 429. */
export async function checkAttempts(
  store: RateLimitStore,
  action: { counters: AttemptCounter[]; windowMs: number; what: string },
  timeoutMs: number,
  onStoreError: (err: unknown) => void,
): Promise<void> {
  for (const { key, limit } of action.counters) {
    let decision: Awaited<ReturnType<RateLimitStore['hit']>>;
    try {
      decision = await withTimeout(store.hit(key, limit, action.windowMs), timeoutMs);
    } catch (err) {
      onStoreError(err);
      continue;
    }
    if (!decision.allowed) {
      const seconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
      throw new AppError(
        'rate_limit.exceeded',
        `Too many ${action.what}; retry after ${seconds} s.`,
        { retryAfterSeconds: seconds },
        { 'retry-after': String(seconds) },
      );
    }
  }
}

/**
 * Sign-in attempts (and invitation acceptances) per rolling 15 minutes:
 * - 10 per email from one client address: one attacker guessing one account's password;
 * - 100 per email from all addresses together: many addresses guessing one account. It is high so
 *   that someone who only knows an owner's email cannot lock them out from one address;
 * - 50 per client address: one address trying many accounts.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_PER_EMAIL_AND_ADDRESS = 10;
export const SIGN_IN_PER_EMAIL = 100;
export const SIGN_IN_PER_ADDRESS = 50;

export function checkSignInLimit(
  store: RateLimitStore,
  who: { email: string; address: string },
  timeoutMs: number,
  onStoreError: (err: unknown) => void,
): Promise<void> {
  const counters = [
    { key: `signin-email-address:${who.email}|${who.address}`, limit: SIGN_IN_PER_EMAIL_AND_ADDRESS },
    { key: `signin-email:${who.email}`, limit: SIGN_IN_PER_EMAIL },
    { key: `signin-address:${who.address}`, limit: SIGN_IN_PER_ADDRESS },
  ];
  return checkAttempts(store, { counters, windowMs: SIGN_IN_WINDOW_MS, what: 'sign-in attempts' }, timeoutMs, onStoreError);
}

/**
 * Password reset requests per rolling hour:
 * - 5 per email from all addresses: a mailbox gets at most 5 reset mails an hour whoever asks;
 *   someone who knows an address can use them up, and its owner then waits at most an hour;
 * - 20 per client address: one address mailing many accounts (or probing them, though the
 *   answer tells nothing).
 * Confirmations: 20 per client address per hour; a token cannot be guessed (256 bits), the limit
 * bounds the scrypt hashes one address can make the server compute.
 */
export const PASSWORD_RESET_WINDOW_MS = 60 * 60 * 1000;
export const PASSWORD_RESET_PER_EMAIL = 5;
export const PASSWORD_RESET_PER_ADDRESS = 20;
export const PASSWORD_RESET_CONFIRMS_PER_ADDRESS = 20;

export function checkPasswordResetLimit(
  store: RateLimitStore,
  who: { email: string; address: string },
  timeoutMs: number,
  onStoreError: (err: unknown) => void,
): Promise<void> {
  const counters = [
    { key: `reset-email:${who.email}`, limit: PASSWORD_RESET_PER_EMAIL },
    { key: `reset-address:${who.address}`, limit: PASSWORD_RESET_PER_ADDRESS },
  ];
  return checkAttempts(store, { counters, windowMs: PASSWORD_RESET_WINDOW_MS, what: 'password reset requests' }, timeoutMs, onStoreError);
}

export function checkResetConfirmLimit(
  store: RateLimitStore,
  address: string,
  timeoutMs: number,
  onStoreError: (err: unknown) => void,
): Promise<void> {
  const counters = [{ key: `reset-confirm-address:${address}`, limit: PASSWORD_RESET_CONFIRMS_PER_ADDRESS }];
  return checkAttempts(store, { counters, windowMs: PASSWORD_RESET_WINDOW_MS, what: 'password reset attempts' }, timeoutMs, onStoreError);
}
