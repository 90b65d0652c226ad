import { useEffect } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { Field } from '../../components/Field.tsx';
import { RecordForm } from '../../components/RecordForm.tsx';
import { useSession, useSignIn } from '../../lib/auth.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { useT } from '../../lib/i18n/index.ts';
import { PASSWORD_CHANGED } from './password-reset.ts';

/** Children only for a signed-in member; otherwise the sign-in page, coming back here after. */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  const t = useT();
  if (session.isPending) return <p className="loading">{t.common.loading}</p>;
  if (session.isError) return <p role="alert">{t.common.unreachable(session.error.message)}</p>;
  if (!session.data) return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  return <Outlet />;
}

export function SignInPage() {
  const signIn = useSignIn();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as { from?: string; notice?: string } | null;
  const from = state?.from ?? '/';
  const t = useT();

  useEffect(() => {
    document.title = t.signIn.docTitle;
  }, [t]);

  if (session.data && !signIn.isPending) return <Navigate to={from} replace />;

  const submit = (form: FormData) =>
    signIn.mutate(
      { email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') },
      { onSuccess: () => navigate(from, { replace: true }) },
    );
  // A wrong email or password is one answer for both (the API does not say which): a form-level message.
  const errors = formErrors(signIn.error, []);

  return (
    <main className="sign-in">
      <h1>{t.signIn.heading}</h1>
      <RecordForm
        className="sign-in-form"
        noValidate={false}
        errors={errors}
        error={signIn.error}
        pending={signIn.isPending}
        submitLabel={t.signIn.submit}
        onSubmit={submit}
        footer={<Link to="/forgot-password">{t.signIn.forgot}</Link>}
      >
        <h2>{t.signIn.title}</h2>
        {state?.notice === PASSWORD_CHANGED && (
          <p role="status" className="notice">
            {t.signIn.passwordChanged}
          </p>
        )}
        <Field label={t.signIn.email}>
          <input name="email" type="email" autoComplete="username" required />
        </Field>
        <Field label={t.signIn.password}>
          <input name="password" type="password" autoComplete="current-password" required />
        </Field>
      </RecordForm>
    </main>
  );
}
