import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, type Member, unwrap } from '../../lib/api.ts';
import { fieldError, namesAField } from '../admin-common/field-error.ts';
import '../admin-common/admin.css';

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
  const id = useId();

  useEffect(() => {
    document.title = 'Accept the invitation · Bookings dashboard';
    if (window.location.search.includes('token=')) navigate('/accept-invitation', { replace: true });
  }, [navigate]);

  const accept = useMutation({
    mutationKey: ['sign-in'],
    mutationFn: async (body: { token: string; name: string; password: string }): Promise<Member> =>
      unwrap(await api.POST('/admin/v1/invitations/accept', { body })).member,
    onSuccess: (member) => {
      qc.clear();
      qc.setQueryData(['session'], member);
      navigate('/', { replace: true });
    },
  });

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    accept.mutate({ token, name: String(data.get('name') ?? '').trim(), password: String(data.get('password') ?? '') });
  };
  const nameError = fieldError(accept.error, 'body.name');
  const passwordError = fieldError(accept.error, 'body.password');

  return (
    <main className="invitation">
      <h1>Accept the invitation</h1>
      {!token ? (
        <p role="alert">This link has no invitation token. Open the link from the invitation as it was sent, or ask for a new one.</p>
      ) : (
        <form className="form" onSubmit={submit}>
          <p>
            Choose your name and a password to join. If you already have an account with this email, enter its password (
            <Link to="/forgot-password">forgot it?</Link>).
          </p>
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            name="name"
            required
            maxLength={200}
            autoComplete="name"
            aria-describedby={nameError ? `${id}-name-error` : undefined}
          />
          {nameError && (
            <span id={`${id}-name-error`} role="alert" className="error">
              {nameError}
            </span>
          )}
          <label htmlFor={`${id}-password`}>Password</label>
          <input
            id={`${id}-password`}
            name="password"
            type="password"
            required
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
          {accept.isError && !namesAField(accept.error, ['body.name', 'body.password']) && (
            <p role="alert" className="error">
              {accept.error.message}
            </p>
          )}
          <div className="form-actions">
            <button type="submit" disabled={accept.isPending}>
              Accept invitation
            </button>
          </div>
        </form>
      )}
    </main>
  );
}
