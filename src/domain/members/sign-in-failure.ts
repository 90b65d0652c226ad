import { AppError } from '../errors.ts';

/**
 * The one answer to a password that does not open an account, wherever a password is checked
 * (sign-in, accepting an invitation to an address that has an account): an unknown email, a wrong
 * password and an account that cannot sign in read alike, so neither route tells which emails
 * have accounts.
 */
export const SIGN_IN_FAILED = 'The email or password is not right.';

export function signInFailed(): AppError {
  return new AppError('auth.invalid_key', SIGN_IN_FAILED);
}
