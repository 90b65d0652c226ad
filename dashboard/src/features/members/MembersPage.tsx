import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { Field } from '../../components/Field.tsx';
import { NotForRole } from '../../components/NotForRole.tsx';
import { RecordForm, text } from '../../components/RecordForm.tsx';
import { SecretOnce } from '../../components/SecretOnce.tsx';
import { useSession } from '../../lib/auth.ts';
import { ROLE_LABELS, type Role, useRole } from '../../lib/authorization.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { when } from '../../lib/format.ts';
import { useChangeRole, useInvitations, useInvite, useMembers, useRemoveMember, useWithdraw } from './queries.ts';

const ROLES: readonly Role[] = ['owner', 'manager', 'frontDesk'];

/**
 * Members (business-side.md): the owner's page. Each member with a role selector (changed at
 * once; the API's 409 member.last_owner shown in the row) and `Remove` (confirmation);
 * `Invite member` (`Email`, `Role`) shows the accept link once with `Copy`; open invitations with
 * `Withdraw`. Other roles may not read members (the API answers 403), and the page says so.
 */
export function MembersPage() {
  const { slug = '' } = useParams();
  const role = useRole(slug);
  const owner = role === 'owner';

  useEffect(() => {
    document.title = 'Members · Bookings dashboard';
  }, []);

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Members</h1>
      {role !== undefined && !owner && <NotForRole what="Managing members" who="Ask an owner of this business." />}
      {owner && <OwnerView slug={slug} />}
    </section>
  );
}

function OwnerView({ slug }: { slug: string }) {
  const me = useSession().data;
  const members = useMembers(slug, true);
  const invitations = useInvitations(slug, true);
  const change = useChangeRole(slug);
  const remove = useRemoveMember(slug);
  const withdraw = useWithdraw(slug);
  const [inviting, setInviting] = useState(false);
  const [link, setLink] = useState<{ email: string; url: string; mailSent: boolean } | undefined>();
  const [removing, setRemoving] = useState<{ id: string; name: string } | undefined>();
  const [withdrawing, setWithdrawing] = useState<{ id: string; email: string } | undefined>();

  return (
    <>
      <div className="actions">
        <button type="button" onClick={() => setInviting(true)}>
          Invite member
        </button>
      </div>
      {link && (
        <SecretOnce
          label={`The invitation link for ${link.email}`}
          secret={link.url}
          note={
            link.mailSent
              ? 'It was also sent by email. It works once, for 7 days.'
              : 'No email was sent: pass the link on yourself. It works once, for 7 days.'
          }
          onDone={() => setLink(undefined)}
        />
      )}

      <h2>Members</h2>
      {members.isError && <p role="alert">{members.error.message}</p>}
      {members.isPending && <p className="loading">Loading members…</p>}
      {members.data && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {members.data.map((m) => {
              const failed = change.isError && change.variables?.userId === m.id;
              return (
                <tr key={m.id}>
                  <th scope="row">
                    {m.name}
                    {m.id === me?.id ? ' (you)' : ''}
                  </th>
                  <td data-label="Email">{m.email ?? '—'}</td>
                  <td data-label="Role">
                    <select
                      aria-label={`Role of ${m.name}`}
                      value={change.isPending && change.variables?.userId === m.id ? change.variables.role : m.role}
                      disabled={change.isPending}
                      onChange={(e) => change.mutate({ userId: m.id, role: e.target.value as Role })}
                    >
                      {ROLES.map((r) => (
                        <option key={r} value={r}>
                          {ROLE_LABELS[r]}
                        </option>
                      ))}
                    </select>
                    {failed && (
                      <span role="alert" className="error">
                        {' '}
                        {change.error.message}
                      </span>
                    )}
                  </td>
                  <td data-label="Joined">{when(m.createdAt)}</td>
                  <td>
                    <button
                      type="button"
                      onClick={() => {
                        remove.reset();
                        setRemoving({ id: m.id, name: m.name });
                      }}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}

      <h2>Open invitations</h2>
      {invitations.isError && <p role="alert">{invitations.error.message}</p>}
      {withdraw.isError && <p role="alert">{withdraw.error.message}</p>}
      {invitations.data && invitations.data.length === 0 && <p>No open invitation.</p>}
      {invitations.data && invitations.data.length > 0 && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Sent</th>
              <th scope="col">Expires</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {invitations.data.map((i) => (
              <tr key={i.id}>
                <th scope="row">{i.email}</th>
                <td data-label="Role">{ROLE_LABELS[i.role]}</td>
                <td data-label="Sent">{when(i.createdAt)}</td>
                <td data-label="Expires">{when(i.expiresAt)}</td>
                <td>
                  <button type="button" onClick={() => setWithdrawing({ id: i.id, email: i.email })}>
                    Withdraw
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <Dialog open={inviting} onClose={() => setInviting(false)} title="Invite a member">
        {inviting && (
          <InviteForm
            slug={slug}
            onInvited={(l) => {
              setInviting(false);
              setLink(l);
            }}
            onCancel={() => setInviting(false)}
          />
        )}
      </Dialog>
      <ConfirmDialog
        open={removing !== undefined}
        title={`Remove ${removing?.name ?? ''}?`}
        confirm="Remove member"
        pending={remove.isPending}
        error={remove.isError ? remove.error.message : undefined}
        onClose={() => setRemoving(undefined)}
        onConfirm={() => removing && remove.mutate(removing.id, { onSuccess: () => setRemoving(undefined) })}
      >
        <p>They lose access to this business now; their personal API keys of this business are revoked.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={withdrawing !== undefined}
        title={`Withdraw the invitation of ${withdrawing?.email ?? ''}?`}
        confirm="Withdraw invitation"
        pending={withdraw.isPending}
        error={withdraw.isError ? withdraw.error.message : undefined}
        onClose={() => setWithdrawing(undefined)}
        onConfirm={() => withdrawing && withdraw.mutate(withdrawing.id, { onSuccess: () => setWithdrawing(undefined) })}
      >
        <p>The link stops working.</p>
      </ConfirmDialog>
    </>
  );
}

function InviteForm(props: {
  slug: string;
  onInvited: (l: { email: string; url: string; mailSent: boolean }) => void;
  onCancel: () => void;
}) {
  const invite = useInvite(props.slug);
  const submit = (data: FormData) =>
    invite.mutate(
      { email: text(data, 'email'), role: text(data, 'role') as Role },
      { onSuccess: (i) => props.onInvited({ email: i.email, url: i.acceptUrl, mailSent: i.mailSent }) },
    );
  const errors = formErrors(invite.error, ['email']);
  return (
    <RecordForm
      noValidate={false}
      errors={errors}
      error={invite.error}
      pending={invite.isPending}
      submitLabel="Send invitation"
      onSubmit={submit}
      onCancel={props.onCancel}
      cancelLabel="Back"
    >
      <Field label="Email" error={errors.fields.email} announce>
        <input name="email" type="email" required autoComplete="off" />
      </Field>
      <Field label="Role">
        <select name="role" defaultValue="frontDesk">
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </Field>
    </RecordForm>
  );
}
