import { useEffect } from 'react';
import { Link } from 'react-router';
import { Field } from '../../components/Field.tsx';
import { RecordForm, text } from '../../components/RecordForm.tsx';
import { formErrors } from '../../lib/form-errors.ts';
import { RESET_WORDS, useRequestPasswordReset } from './password-reset.ts';
import '../../components/admin.css';

/**
 * `/dashboard/forgot-password` (public, no session): `Email`, `Send reset link` → POST
 * /admin/v1/password-reset, then the same neutral confirmation whether or not the email has an
 * account (the API tells nothing either). A server without mail says so in plain words.
 */
export function ForgotPasswordPage() {
  const request = useRequestPasswordReset();

  useEffect(() => {
    document.title = 'Forgot password · Bookings dashboard';
  }, []);

  const errors = formErrors(request.error, ['email'], RESET_WORDS);

  return (
    <main className="invitation">
      <h1>Forgot password</h1>
      {request.isSuccess ? (
        <p role="status">
          If an account exists for this email, we sent a link to set a new password. It works once, for one hour. Check your inbox (and the
          spam folder).
        </p>
      ) : (
        <RecordForm
          noValidate={false}
          errors={errors}
          error={request.error}
          pending={request.isPending}
          submitLabel="Send reset link"
          onSubmit={(d) => request.mutate({ email: text(d, 'email') })}
        >
          <p>Enter the email you sign in with. We send a link to set a new password.</p>
          <Field label="Email" error={errors.fields.email} announce>
            <input name="email" type="email" required maxLength={254} autoComplete="username" />
          </Field>
        </RecordForm>
      )}
      <p>
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </main>
  );
}
