import { AppError } from '../../domain/errors.ts';
import type { AccountCheck, AccountLimiter } from '../../rate-limit/account-limiter.ts';

/**
 * Limits on the account routes that take no credential (sign-in, invitation acceptance, password
 * reset), counted through the AccountLimiter: the shared store (so they hold across instances with
 * Redis) and, when it fails or is slow, this process's counters with the same limits, never none.
 * An attempt is counted before its password is checked, so a right guess past the limit is refused
 * like a wrong one; a sign-in that succeeds is then taken back (`succeeded`), so only failures use
 * up the limit and a receptionist signing in all day is never locked out.
 */

/** A counted attempt; `succeeded` takes it back once the credential proved right. */
export interface CountedAttempt {
  succeeded(): Promise<void>;
}

/** Counts one attempt on every check, in order; the first that is full answers 429. */
async function checkAttempts(
  limiter: AccountLimiter,
  action: { checks: AccountCheck[]; windowMs: number; what: string },
): Promise<CountedAttempt> {
  const { refused, forgive } = await limiter.hitAll(action.checks, action.windowMs);
  if (!refused) return { succeeded: forgive };
  const seconds = Math.max(1, Math.ceil(refused.resetMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  throw new AppError(
    'rate_limit.exceeded',
    `Too many ${action.what}. Try again in ${minutes === 1 ? '1 minute' : `${minutes} minutes`}.`,
    { retryAfterSeconds: seconds },
    { 'retry-after': String(seconds) },
  );
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

export function checkSignInLimit(limiter: AccountLimiter, who: { email: string; address: string }): Promise<CountedAttempt> {
  const checks: AccountCheck[] = [
    [`signin-email-address:${who.email}|${who.address}`, SIGN_IN_PER_EMAIL_AND_ADDRESS],
    [`signin-email:${who.email}`, SIGN_IN_PER_EMAIL],
    [`signin-address:${who.address}`, SIGN_IN_PER_ADDRESS],
  ];
  return checkAttempts(limiter, { checks, windowMs: SIGN_IN_WINDOW_MS, what: 'sign-in attempts' });
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

export function checkPasswordResetLimit(limiter: AccountLimiter, who: { email: string; address: string }): Promise<CountedAttempt> {
  const checks: AccountCheck[] = [
    [`reset-email:${who.email}`, PASSWORD_RESET_PER_EMAIL],
    [`reset-address:${who.address}`, PASSWORD_RESET_PER_ADDRESS],
  ];
  return checkAttempts(limiter, { checks, windowMs: PASSWORD_RESET_WINDOW_MS, what: 'password reset requests' });
}

export function checkResetConfirmLimit(limiter: AccountLimiter, address: string): Promise<CountedAttempt> {
  const checks: AccountCheck[] = [[`reset-confirm-address:${address}`, PASSWORD_RESET_CONFIRMS_PER_ADDRESS]];
  return checkAttempts(limiter, { checks, windowMs: PASSWORD_RESET_WINDOW_MS, what: 'password reset attempts' });
}
