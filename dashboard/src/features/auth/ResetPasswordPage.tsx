import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Field } from '../../components/Field.tsx';
import { RecordForm } from '../../components/RecordForm.tsx';
import { ApiError } from '../../lib/api.ts';
import { SESSION_KEY } from '../../lib/auth.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { useT } from '../../lib/i18n/index.ts';
import { PASSWORD_CHANGED, RESET_WORDS, useConfirmPasswordReset } from './password-reset.ts';
import '../../components/admin.css';

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
  const t = useT();
  const w = t.resetPassword;

  useEffect(() => {
    if (window.location.search.includes('token=')) navigate('/reset-password', { replace: true });
  }, [navigate]);
  useEffect(() => {
    document.title = w.docTitle;
  }, [w]);

  const submit = (data: FormData) => {
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
  const errors = formErrors(confirm.error, ['password'], RESET_WORDS);

  return (
    <main className="invitation">
      <h1>{w.title}</h1>
      {!token ? (
        <p role="alert">
          {w.noToken}
          <Link to="/forgot-password">{w.askNew}</Link>.
        </p>
      ) : (
        <RecordForm
          noValidate={false}
          errors={errors}
          error={confirm.error}
          pending={confirm.isPending}
          submitLabel={w.submit}
          onSubmit={submit}
          alertExtra={
            confirm.error instanceof ApiError &&
            confirm.error.status === 404 && (
              <>
                {' '}
                <Link to="/forgot-password">{w.askNewLink}</Link>
              </>
            )
          }
        >
          <Field label={w.newPassword} hint={t.common.passwordHint} error={errors.fields.password} announce>
            <input name="password" type="password" required maxLength={200} autoComplete="new-password" />
          </Field>
          <Field label={w.confirm} error={mismatch ? w.mismatch : undefined} announce>
            <input name="confirm" type="password" required maxLength={200} autoComplete="new-password" />
          </Field>
        </RecordForm>
      )}
    </main>
  );
}
