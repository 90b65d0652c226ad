import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { fieldError } from '../admin-common/field-error.ts';
import { PASSWORD_CHANGED, resetErrorText, useConfirmPasswordReset } from './password-reset.ts';
import { SESSION_KEY } from './session.ts';
import '../admin-common/admin.css';

/** The token of the link, read once from the address the page was opened with. */
function tokenFromAddress(): string {
  return new URLSearchParams(window.location.search).get('token') ?? '';
}

/**
 * `/dashboard/reset-password?token=…` (public, no session), the link of the reset mail:
 * `New password`, `Confirm password`, `Set new password` → POST /admin/v1/password-reset/confirm.
 * The token is taken out of the address bar at once (a `replace` navigation), as on the
 * invitation page. The API ends every session of the account and does not sign in: the page goes
 * to sign-in, which says the password was changed.
 */
export function ResetPasswordPage() {
  const [token] = useState(tokenFromAddress);
  const [mismatch, setMismatch] = useState(false);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const confirm = useConfirmPasswordReset();
  const id = useId();

  useEffect(() => {
    document.title = 'Set a new password · Bookings dashboard';
    if (window.location.search.includes('token=')) navigate('/reset-password', { replace: true });
  }, [navigate]);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const password = String(data.get('password') ?? '');
    const repeated = String(data.get('confirm') ?? '');
    setMismatch(password !== repeated);
    if (password !== repeated) return;
    confirm.mutate(
      { token, password },
      {
        onSuccess: () => {
          // Every session of the account has ended, this browser's included.
          qc.clear();
          qc.setQueryData(SESSION_KEY, null);
          navigate('/sign-in', { replace: true, state: { notice: PASSWORD_CHANGED } });
        },
      },
    );
  };
  const passwordError = fieldError(confirm.error, 'body.password');

  return (
    <main className="invitation">
      <h1>Set a new password</h1>
      {!token ? (
        <p role="alert">
          This link has no reset token. Open the link from the mail as it was sent, or <Link to="/forgot-password">ask for a new one</Link>.
        </p>
      ) : (
        <form className="form" onSubmit={submit}>
          <label htmlFor={`${id}-password`}>New password</label>
          <input
            id={`${id}-password`}
            name="password"
            type="password"
            required
            maxLength={200}
            autoComplete="new-password"
            aria-describedby={`${id}-password-hint${passwordError ? ` ${id}-password-error` : ''}`}
            aria-invalid={passwordError ? true : undefined}
          />
          <span id={`${id}-password-hint`} className="muted">
            At least 10 characters.
          </span>
          {passwordError && (
            <span id={`${id}-password-error`} role="alert" className="error">
              {passwordError}
            </span>
          )}
          <label htmlFor={`${id}-confirm`}>Confirm password</label>
          <input
            id={`${id}-confirm`}
            name="confirm"
            type="password"
            required
            maxLength={200}
            autoComplete="new-password"
            aria-describedby={mismatch ? `${id}-confirm-error` : undefined}
            aria-invalid={mismatch ? true : undefined}
          />
          {mismatch && (
            <span id={`${id}-confirm-error`} role="alert" className="error">
              The two passwords are not the same.
            </span>
          )}
          {confirm.isError && !passwordError && (
            <p role="alert" className="error">
              {resetErrorText(confirm.error)}{' '}
              {confirm.error instanceof ApiError && confirm.error.status === 404 && <Link to="/forgot-password">Ask for a new link</Link>}
            </p>
          )}
          <div className="form-actions">
            <button type="submit" disabled={confirm.isPending}>
              Set new password
            </button>
          </div>
        </form>
      )}
    </main>
  );
}
