import { type FormEvent, useEffect, useId } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { PASSWORD_CHANGED } from './password-reset.ts';
import { useSession, useSignIn } from './session.ts';

/** Children only for a signed-in member; otherwise the sign-in page, coming back here after. */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <p className="loading">Loading…</p>;
  if (session.isError) return <p role="alert">The server could not be reached: {session.error.message}</p>;
  if (!session.data) return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  return <Outlet />;
}

export function SignInPage() {
  const signIn = useSignIn();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const errorId = useId();
  const state = location.state as { from?: string; notice?: string } | null;
  const from = state?.from ?? '/';

  useEffect(() => {
    document.title = 'Sign in · Bookings dashboard';
  }, []);

  if (session.data && !signIn.isPending) return <Navigate to={from} replace />;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    signIn.mutate(
      { email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') },
      { onSuccess: () => navigate(from, { replace: true }) },
    );
  };

  return (
    <main className="sign-in">
      <h1>Bookings dashboard</h1>
      <form onSubmit={submit} aria-describedby={signIn.isError ? errorId : undefined} noValidate={false}>
        <h2>Sign in</h2>
        {state?.notice === PASSWORD_CHANGED && (
          <p role="status" className="notice">
            Your password was changed; sign in.
          </p>
        )}
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {signIn.isError && (
          <p id={errorId} role="alert" className="error">
            {signIn.error.message}
          </p>
        )}
        <button type="submit" disabled={signIn.isPending}>
          Sign in
        </button>
        <Link to="/forgot-password">Forgot password?</Link>
      </form>
    </main>
  );
}
