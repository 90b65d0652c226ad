import { useEffect } from 'react';
import { Link } from 'react-router';
import { Field } from '../../components/Field.tsx';
import { RecordForm, text } from '../../components/RecordForm.tsx';
import { formErrors } from '../../lib/form-errors.ts';
import { useT } from '../../lib/i18n/index.ts';
import { RESET_WORDS, useRequestPasswordReset } from './password-reset.ts';
import '../../components/admin.css';

/**
 * `/dashboard/forgot-password` (public, no session): `Email`, `Send reset link` → POST
 * /admin/v1/password-reset, then the same neutral confirmation whether or not the email has an
 * account (the API tells nothing either). A server without mail says so in plain words.
 */
export function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  const t = useT();
  const w = t.forgotPassword;

  useEffect(() => {
    document.title = w.docTitle;
  }, [w]);

  const errors = formErrors(request.error, ['email'], RESET_WORDS);

  return (
    <main className="invitation">
      <h1>{w.title}</h1>
      {request.isSuccess ? (
        <p role="status">{w.sent}</p>
      ) : (
        <RecordForm
          noValidate={false}
          errors={errors}
          error={request.error}
          pending={request.isPending}
          submitLabel={w.submit}
          onSubmit={(d) => request.mutate({ email: text(d, 'email') })}
        >
          <p>{w.intro}</p>
          <Field label={t.signIn.email} error={errors.fields.email} announce>
            <input name="email" type="email" required maxLength={254} autoComplete="username" />
          </Field>
        </RecordForm>
      )}
      <p>
        <Link to="/sign-in">{w.back}</Link>
      </p>
    </main>
  );
}
