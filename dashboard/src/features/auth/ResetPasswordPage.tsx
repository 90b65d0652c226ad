import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Field } from '../../components/Field.tsx';
import { RecordForm } from '../../components/RecordForm.tsx';
import { ApiError } from '../../lib/api.ts';
import { SESSION_KEY } from '../../lib/auth.ts';
import { formErrors } from '../../lib/form-errors.ts';
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

  useEffect(() => {
    document.title = 'Set a new password · Bookings dashboard';
    if (window.location.search.includes('token=')) navigate('/reset-password', { replace: true });
  }, [navigate]);

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
      <h1>Set a new password</h1>
      {!token ? (
        <p role="alert">
          This link has no reset token. Open the link from the mail as it was sent, or <Link to="/forgot-password">ask for a new one</Link>.
        </p>
      ) : (
        <RecordForm
          noValidate={false}
          errors={errors}
          error={confirm.error}
          pending={confirm.isPending}
          submitLabel="Set new password"
          onSubmit={submit}
          alertExtra={
            confirm.error instanceof ApiError &&
            confirm.error.status === 404 && (
              <>
                {' '}
                <Link to="/forgot-password">Ask for a new link</Link>
              </>
            )
          }
        >
          <Field label="New password" hint="At least 10 characters." error={errors.fields.password} announce>
            <input name="password" type="password" required maxLength={200} autoComplete="new-password" />
          </Field>
          <Field label="Confirm password" error={mismatch ? 'The two passwords are not the same.' : undefined} announce>
            <input name="confirm" type="password" required maxLength={200} autoComplete="new-password" />
          </Field>
        </RecordForm>
      )}
    </main>
  );
}
