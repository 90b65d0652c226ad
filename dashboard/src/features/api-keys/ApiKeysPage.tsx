import { type FormEvent, useEffect, useId, useState } from 'react';
import { useParams } from 'react-router';
import { Dialog } from '../../components/Dialog.tsx';
import { ConfirmDialog } from '../admin-common/ConfirmDialog.tsx';
import { fieldError, namesAField } from '../admin-common/field-error.ts';
import { when } from '../admin-common/format.ts';
import { NotForRole } from '../admin-common/NotForRole.tsx';
import { useRole } from '../admin-common/role.ts';
import { SecretOnce } from '../admin-common/SecretOnce.tsx';
import {
  CAPABILITIES,
  type Capability,
  GUEST_PARTNER_CAPABILITIES,
  type NewKey,
  useApiKeys,
  useCreateKey,
  useMembersForKeys,
  useRevokeKey,
} from './queries.ts';

/**
 * API keys (business-side.md): the list (never a secret), `Create key` (owner) with the secret
 * shown once with `Copy`, `Revoke` (owner) behind a confirmation. A manager sees the list
 * read-only; front desk may not read keys, and the page says so.
 */
export function ApiKeysPage() {
  const { slug = '' } = useParams();
  const role = useRole(slug);
  const owner = role === 'owner';
  const mayRead = role === 'owner' || role === 'manager';
  const keys = useApiKeys(slug, mayRead);
  const revoke = useRevokeKey(slug);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ name: string; secret: string } | undefined>();
  const [revoking, setRevoking] = useState<{ id: string; name: string } | undefined>();

  useEffect(() => {
    document.title = 'API keys · Bookings dashboard';
  }, []);

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">API keys</h1>
      {role === 'frontDesk' && <NotForRole what="API keys" who="Owners manage them; managers can see the list." />}
      {role === 'manager' && <p className="notice">You can see the keys; only an owner can create or revoke them.</p>}
      {owner && (
        <div className="actions">
          <button type="button" onClick={() => setCreating(true)}>
            Create key
          </button>
        </div>
      )}
      {secret && (
        <SecretOnce
          label={`The secret of “${secret.name}”`}
          secret={secret.secret}
          note="Store it where your integration reads its configuration."
          onDone={() => setSecret(undefined)}
        />
      )}
      {mayRead && keys.isError && <p role="alert">{keys.error.message}</p>}
      {mayRead && keys.isPending && <p className="loading">Loading keys…</p>}
      {keys.data && keys.data.length === 0 && <p>No API key yet.</p>}
      {keys.data && keys.data.length > 0 && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Kind</th>
              <th scope="col">Capabilities</th>
              <th scope="col">Tier</th>
              <th scope="col">Prefix</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Revoked</th>
              <th scope="col">Last used</th>
              {owner && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {keys.data.map((k) => (
              <tr key={k.id}>
                <th scope="row">{k.name}</th>
                <td>{k.type}</td>
                <td>{k.kind}</td>
                <td>{k.capabilities.join(', ')}</td>
                <td>{k.tier}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>{when(k.createdAt)}</td>
                <td>{k.expiresAt ? when(k.expiresAt) : 'never'}</td>
                <td>{k.revokedAt ? when(k.revokedAt) : 'no'}</td>
                <td>{k.lastUsedAt ? when(k.lastUsedAt) : 'never'}</td>
                {owner && (
                  <td>
                    {!k.revokedAt && (
                      <button
                        type="button"
                        onClick={() => {
                          revoke.reset();
                          setRevoking({ id: k.id, name: k.name });
                        }}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {owner && (
        <Dialog open={creating} onClose={() => setCreating(false)} title="Create an API key">
          {creating && (
            <CreateKeyForm
              slug={slug}
              onCreated={(name, s) => {
                setCreating(false);
                setSecret({ name, secret: s });
              }}
              onCancel={() => setCreating(false)}
            />
          )}
        </Dialog>
      )}
      <ConfirmDialog
        open={revoking !== undefined}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        confirm="Revoke key"
        pending={revoke.isPending}
        error={revoke.isError ? revoke.error.message : undefined}
        onClose={() => setRevoking(undefined)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSuccess: () => setRevoking(undefined) })}
      >
        <p>Requests with this key are refused from now on. This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}

function CreateKeyForm(props: { slug: string; onCreated: (name: string, secret: string) => void; onCancel: () => void }) {
  const id = useId();
  const f = (n: string) => `${id}-${n}`;
  const create = useCreateKey(props.slug);
  const [type, setType] = useState<NewKey['type']>('integration');
  const [kind, setKind] = useState<NewKey['kind']>('owner');
  const members = useMembersForKeys(props.slug, type === 'personal');
  const offered = kind === 'guest_partner' ? GUEST_PARTNER_CAPABILITIES : CAPABILITIES;
  const FIELDS = ['body.name', 'body.userId', 'body.capabilities', 'body.expiresAt'] as const;
  const besideAField = namesAField(create.error, FIELDS);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (n: string) => String(data.get(n) ?? '').trim();
    const expiry = text('expiresAt');
    const body: NewKey = {
      name: text('name'),
      type,
      kind,
      capabilities: data.getAll('capabilities').map(String) as Capability[],
      tier: text('tier') as NonNullable<NewKey['tier']>,
      ...(expiry ? { expiresAt: new Date(expiry).toISOString() } : {}),
      ...(type === 'personal' && text('userId') ? { userId: text('userId') } : {}),
    };
    create.mutate(body, { onSuccess: (key) => props.onCreated(key.name, key.secret ?? '') });
  };
  const beside = (name: (typeof FIELDS)[number]) => {
    const message = fieldError(create.error, name);
    return (
      message && (
        <span role="alert" className="error">
          {message}
        </span>
      )
    );
  };

  return (
    <form className="form" onSubmit={submit}>
      <label htmlFor={f('name')}>Name</label>
      <input id={f('name')} name="name" required maxLength={100} />
      {beside('body.name')}
      <label htmlFor={f('type')}>Type</label>
      <select id={f('type')} name="type" value={type} onChange={(e) => setType(e.target.value as NewKey['type'])}>
        <option value="integration">integration (a system: a website, a booking widget)</option>
        <option value="personal">personal (held by one member; never more than their role allows; revoked when they leave)</option>
      </select>
      {type === 'personal' && (
        <>
          <label htmlFor={f('member')}>Member</label>
          <select id={f('member')} name="userId" required>
            <option value="">Choose a member</option>
            {(members.data ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
                {m.email ? ` (${m.email})` : ''}
              </option>
            ))}
          </select>
          {members.isError && <span role="alert">{members.error.message}</span>}
          {beside('body.userId')}
        </>
      )}
      <label htmlFor={f('kind')}>Kind</label>
      <select id={f('kind')} name="kind" value={kind} onChange={(e) => setKind(e.target.value as NewKey['kind'])}>
        <option value="owner">owner (the business's own integration)</option>
        <option value="guest_partner">guest_partner (a partner booking for guests)</option>
      </select>
      <fieldset>
        <legend>Capabilities</legend>
        {offered.map((c) => (
          <div key={c} className="field-inline">
            <input type="checkbox" id={f(`cap-${c}`)} name="capabilities" value={c} />
            <label htmlFor={f(`cap-${c}`)}>{c}</label>
          </div>
        ))}
      </fieldset>
      {beside('body.capabilities')}
      <label htmlFor={f('tier')}>Tier</label>
      <select id={f('tier')} name="tier" defaultValue="standard">
        <option value="standard">standard</option>
        <option value="elevated">elevated</option>
      </select>
      <label htmlFor={f('expiry')}>Expiry (optional, your local time)</label>
      <input id={f('expiry')} name="expiresAt" type="datetime-local" />
      {beside('body.expiresAt')}
      {create.isError && !besideAField && (
        <p role="alert" className="error">
          {create.error.message}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" disabled={create.isPending}>
          Create
        </button>
        <button type="button" onClick={props.onCancel}>
          Back
        </button>
      </div>
    </form>
  );
}
