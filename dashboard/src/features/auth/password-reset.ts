import { useMutation } from '@tanstack/react-query';
import { api, type ErrorCode, unwrap } from '../../lib/api.ts';
import { SIGN_IN_MUTATION } from '../../lib/query-keys.ts';
import { currentMessages } from '../../lib/i18n/index.ts';

/** What the sign-in page is told, in its navigation state, after a password was set by a reset link. */
export const PASSWORD_CHANGED = 'password-changed';

/** The 503 mail.not_configured in words a receptionist can act on (formErrors' `words`); other errors in the API's. */
export const RESET_WORDS: Partial<Record<ErrorCode, string>> = {
  // a getter: the words of the language the page is shown in when the refusal is shown
  get 'mail.not_configured'() {
    return currentMessages().passwordReset.mailNotConfigured;
  },
};

/** POST /password-reset: the same answer whether or not the email has an account. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationKey: SIGN_IN_MUTATION,
    mutationFn: async (body: { email: string }) => unwrap(await api.POST('/admin/v1/password-reset', { body })),
  });
}

/** POST /password-reset/confirm: sets the password and ends every session; it does not sign in. */
export function useConfirmPasswordReset() {
  return useMutation({
    mutationKey: SIGN_IN_MUTATION,
    mutationFn: async (body: { token: string; password: string }) => unwrap(await api.POST('/admin/v1/password-reset/confirm', { body })),
  });
}
