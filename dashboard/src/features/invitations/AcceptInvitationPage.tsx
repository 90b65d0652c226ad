import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Field } from '../../components/Field.tsx';
import { RecordForm, text } from '../../components/RecordForm.tsx';
import { api, type Member, unwrap } from '../../lib/api.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { useT } from '../../lib/i18n/index.ts';
import { SIGN_IN_MUTATION, sessionKeys } from '../../lib/query-keys.ts';
import '../../components/admin.css';

/** The token of the link, read once from the address the page was opened with. */
function tokenFromAddress(): string {
  return new URLSearchParams(window.location.search).get('token') ?? '';
}

/**
 * `/dashboard/accept-invitation?token=…` (public, no session): `Name`, `Password`,
 * `Accept invitation` → POST /admin/v1/invitations/accept, which creates the account (or adds the
 * membership to the existing account with that email, whose password it then needs) and signs in;
 * then the calendar. The token is taken out of the address bar at once (a `replace` navigation,
 * i.e. history.replaceState), so it stays in neither the history nor a bookmark.
 */
export function AcceptInvitationPage() {
  const [token] = useState(tokenFromAddress);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const t = useT();
  const w = t.invitation;

  useEffect(() => {
    if (window.location.search.includes('token=')) navigate('/accept-invitation', { replace: true });
  }, [navigate]);
  useEffect(() => {
    document.title = w.docTitle;
  }, [w]);

  const accept = useMutation({
    mutationKey: SIGN_IN_MUTATION,
    mutationFn: async (body: { token: string; name: string; password: string }): Promise<Member> =>
      unwrap(await api.POST('/admin/v1/invitations/accept', { body })).member,
    onSuccess: (member) => {
      qc.clear();
      qc.setQueryData(sessionKeys.all, member);
      navigate('/', { replace: true });
    },
  });

  const submit = (data: FormData) => accept.mutate({ token, name: text(data, 'name'), password: String(data.get('password') ?? '') });
  const errors = formErrors(accept.error, ['name', 'password']);

  return (
    <main className="invitation">
      <h1>{w.title}</h1>
      {!token ? (
        <p role="alert">{w.noToken}</p>
      ) : (
        <RecordForm
          noValidate={false}
          errors={errors}
          error={accept.error}
          pending={accept.isPending}
          submitLabel={w.submit}
          onSubmit={submit}
        >
          <p>
            {w.intro}
            <Link to="/forgot-password">{w.forgot}</Link>
            {w.after}
          </p>
          <Field label={t.common.name} error={errors.fields.name} announce>
            <input name="name" required maxLength={200} autoComplete="name" />
          </Field>
          <Field label={t.common.password} hint={t.common.passwordHint} error={errors.fields.password} announce>
            <input name="password" type="password" required autoComplete="new-password" />
          </Field>
        </RecordForm>
      )}
    </main>
  );
}
