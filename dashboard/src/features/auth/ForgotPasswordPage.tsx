import { type FormEvent, useEffect, useId } from 'react';
import { Link } from 'react-router';
import { resetErrorText, useRequestPasswordReset } from './password-reset.ts';
import '../admin-common/admin.css';

/**
 * `/dashboard/forgot-password` (public, no session): `Email`, `Send reset link` → POST
 * /admin/v1/password-reset, then the same neutral confirmation whether or not the email has an
 * account (the API tells nothing either). A server without mail says so in plain words.
 */
export function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  const id = useId();

  useEffect(() => {
    document.title = 'Forgot password · Bookings dashboard';
  }, []);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    request.mutate({ email: String(new FormData(e.currentTarget).get('email') ?? '').trim() });
  };

  return (
    <main className="invitation">
      <h1>Forgot password</h1>
      {request.isSuccess ? (
        <p role="status">
          If an account exists for this email, we sent a link to set a new password. It works once, for one hour. Check your inbox (and the
          spam folder).
        </p>
      ) : (
        <form className="form" onSubmit={submit}>
          <p>Enter the email you sign in with. We send a link to set a new password.</p>
          <label htmlFor={`${id}-email`}>Email</label>
          <input
            id={`${id}-email`}
            name="email"
            type="email"
            required
            maxLength={254}
            autoComplete="username"
            aria-describedby={request.isError ? `${id}-error` : undefined}
          />
          {request.isError && (
            <p id={`${id}-error`} role="alert" className="error">
              {resetErrorText(request.error)}
            </p>
          )}
          <div className="form-actions">
            <button type="submit" disabled={request.isPending}>
              Send reset link
            </button>
          </div>
        </form>
      )}
      <p>
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </main>
  );
}
