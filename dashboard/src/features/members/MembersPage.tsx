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
import { useT } from '../../lib/i18n/index.ts';
import { useChangeRole, useInvitations, useInvite, useMembers, useRemoveMember, useWithdraw } from './queries.ts';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { membersWords } from './words.ts';

const ROLES: readonly Role[] = ['owner', 'manager', 'frontDesk'];

/**
 * Members (business-side.md): the owner's page. Each member with a role selector (changed at
 * once; the API's 409 member.last_owner shown in the row) and `Remove` (confirmation);
 * `Invite member` (`Email`, `Role`) shows the accept link once with `Copy`; open invitations with
 * `Withdraw`. Other roles may not read members (the API answers 403), and the page says so.
 */
export function MembersPage() {
  const w = usePageWords(membersWords);
  const { slug = '' } = useParams();
  const role = useRole(slug);
  const owner = role === 'owner';

  useEffect(() => {
    document.title = w.docTitle;
  }, [w]);

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{w.title}</h1>
      {role !== undefined && !owner && <NotForRole what={w.notForRoleWhat} who={w.notForRoleWho} />}
      {owner && <OwnerView slug={slug} />}
    </section>
  );
}

function OwnerView({ slug }: { slug: string }) {
  const w = usePageWords(membersWords);
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
          {w.invite}
        </button>
      </div>
      {link && (
        <SecretOnce
          label={w.linkFor(link.email)}
          secret={link.url}
          note={link.mailSent ? w.mailSent : w.noMail}
          onDone={() => setLink(undefined)}
        />
      )}

      <h2>{w.title}</h2>
      {members.isError && <p role="alert">{members.error.message}</p>}
      {members.isPending && <p className="loading">{w.loading}</p>}
      {members.data && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{w.name}</th>
              <th scope="col">{w.email}</th>
              <th scope="col">{w.role}</th>
              <th scope="col">{w.joined}</th>
              <th scope="col">{w.actions}</th>
            </tr>
          </thead>
          <tbody>
            {members.data.map((m) => {
              const failed = change.isError && change.variables?.userId === m.id;
              return (
                <tr key={m.id}>
                  <th scope="row">
                    {m.name}
                    {m.id === me?.id ? w.you : ''}
                  </th>
                  <td data-label={w.email}>{m.email ?? '—'}</td>
                  <td data-label={w.role}>
                    <select
                      aria-label={w.roleOf(m.name)}
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
                  <td data-label={w.joined}>{when(m.createdAt)}</td>
                  <td>
                    <button
                      type="button"
                      onClick={() => {
                        remove.reset();
                        setRemoving({ id: m.id, name: m.name });
                      }}
                    >
                      {w.remove}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}

      <h2>{w.openInvitations}</h2>
      {invitations.isError && <p role="alert">{invitations.error.message}</p>}
      {withdraw.isError && <p role="alert">{withdraw.error.message}</p>}
      {invitations.data && invitations.data.length === 0 && <p>{w.noInvitation}</p>}
      {invitations.data && invitations.data.length > 0 && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{w.email}</th>
              <th scope="col">{w.role}</th>
              <th scope="col">{w.sent}</th>
              <th scope="col">{w.expires}</th>
              <th scope="col">{w.actions}</th>
            </tr>
          </thead>
          <tbody>
            {invitations.data.map((i) => (
              <tr key={i.id}>
                <th scope="row">{i.email}</th>
                <td data-label={w.role}>{ROLE_LABELS[i.role]}</td>
                <td data-label={w.sent}>{when(i.createdAt)}</td>
                <td data-label={w.expires}>{when(i.expiresAt)}</td>
                <td>
                  <button type="button" onClick={() => setWithdrawing({ id: i.id, email: i.email })}>
                    {w.withdraw}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <Dialog open={inviting} onClose={() => setInviting(false)} title={w.inviteTitle}>
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
        title={w.removeTitle(removing?.name ?? '')}
        confirm={w.removeConfirm}
        pending={remove.isPending}
        error={remove.isError ? remove.error.message : undefined}
        onClose={() => setRemoving(undefined)}
        onConfirm={() => removing && remove.mutate(removing.id, { onSuccess: () => setRemoving(undefined) })}
      >
        <p>{w.removeText}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={withdrawing !== undefined}
        title={w.withdrawTitle(withdrawing?.email ?? '')}
        confirm={w.withdrawConfirm}
        pending={withdraw.isPending}
        error={withdraw.isError ? withdraw.error.message : undefined}
        onClose={() => setWithdrawing(undefined)}
        onConfirm={() => withdrawing && withdraw.mutate(withdrawing.id, { onSuccess: () => setWithdrawing(undefined) })}
      >
        <p>{w.withdrawText}</p>
      </ConfirmDialog>
    </>
  );
}

function InviteForm(props: {
  slug: string;
  onInvited: (l: { email: string; url: string; mailSent: boolean }) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const w = usePageWords(membersWords);
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
      submitLabel={w.sendInvitation}
      onSubmit={submit}
      onCancel={props.onCancel}
      cancelLabel={t.common.back}
    >
      <Field label={w.email} error={errors.fields.email} announce>
        <input name="email" type="email" required autoComplete="off" />
      </Field>
      <Field label={w.role}>
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
