import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { Field, FieldGroup } from '../../components/Field.tsx';
import { NotForRole } from '../../components/NotForRole.tsx';
import { RecordForm, text } from '../../components/RecordForm.tsx';
import { SecretOnce } from '../../components/SecretOnce.tsx';
import { useRole } from '../../lib/authorization.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { when } from '../../lib/format.ts';
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
        <table className="list wide">
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
                <td data-label="Type">{k.type}</td>
                <td data-label="Kind">{k.kind}</td>
                <td data-label="Capabilities">{k.capabilities.join(', ')}</td>
                <td data-label="Tier">{k.tier}</td>
                <td data-label="Prefix">
                  <code>{k.prefix}…</code>
                </td>
                <td data-label="Created">{when(k.createdAt)}</td>
                <td data-label="Expires">{k.expiresAt ? when(k.expiresAt) : 'never'}</td>
                <td data-label="Revoked">{k.revokedAt ? when(k.revokedAt) : 'no'}</td>
                <td data-label="Last used">{k.lastUsedAt ? when(k.lastUsedAt) : 'never'}</td>
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
  const create = useCreateKey(props.slug);
  const [type, setType] = useState<NewKey['type']>('integration');
  const [kind, setKind] = useState<NewKey['kind']>('owner');
  const members = useMembersForKeys(props.slug, type === 'personal');
  const offered = kind === 'guest_partner' ? GUEST_PARTNER_CAPABILITIES : CAPABILITIES;
  const [chosen, setChosen] = useState<ReadonlySet<Capability>>(new Set());
  const toggle = (c: Capability, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (on) next.add(c);
      else next.delete(c);
      return next;
    });
  const errors = formErrors(create.error, ['name', 'userId', 'capabilities', 'expiresAt']);
  const e = errors.fields;

  const submit = (data: FormData) => {
    const expiry = text(data, 'expiresAt');
    const userId = text(data, 'userId');
    const body: NewKey = {
      name: text(data, 'name'),
      type,
      kind,
      capabilities: offered.filter((c) => chosen.has(c)),
      tier: text(data, 'tier') as NonNullable<NewKey['tier']>,
      ...(expiry ? { expiresAt: new Date(expiry).toISOString() } : {}),
      ...(type === 'personal' && userId ? { userId } : {}),
    };
    create.mutate(body, { onSuccess: (key) => props.onCreated(key.name, key.secret ?? '') });
  };

  return (
    <RecordForm
      noValidate={false}
      errors={errors}
      error={create.error}
      pending={create.isPending}
      submitLabel="Create"
      onSubmit={submit}
      onCancel={props.onCancel}
      cancelLabel="Back"
    >
      <Field label="Name" error={e.name} announce>
        <input name="name" required maxLength={100} />
      </Field>
      <Field label="Type" hint={TYPE_HINTS[type]}>
        <select name="type" value={type} onChange={(ev) => setType(ev.target.value as NewKey['type'])}>
          <option value="integration">Integration</option>
          <option value="personal">Personal</option>
        </select>
      </Field>
      {type === 'personal' && (
        <>
          <Field label="Member" error={e.userId} announce>
            <select name="userId" required>
              <option value="">Choose a member</option>
              {(members.data ?? []).map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                  {m.email ? ` (${m.email})` : ''}
                </option>
              ))}
            </select>
          </Field>
          {members.isError && <span role="alert">{members.error.message}</span>}
        </>
      )}
      <Field label="Kind" hint={KIND_HINTS[kind]}>
        <select
          name="kind"
          value={kind}
          onChange={(ev) => {
            const next = ev.target.value as NewKey['kind'];
            setKind(next);
            // a partner key cannot hold the others: the API would refuse them
            if (next === 'guest_partner') setChosen((prev) => new Set([...prev].filter((c) => GUEST_PARTNER_CAPABILITIES.includes(c))));
          }}
        >
          <option value="owner">The business's own</option>
          <option value="guest_partner">A partner booking for guests</option>
        </select>
      </Field>
      <FieldGroup legend="Capabilities" error={e.capabilities} announce>
        <div className="presets">
          {PRESETS.map((p) => (
            <button
              key={p.name}
              type="button"
              aria-pressed={sameSet(chosen, p.pick(offered))}
              onClick={() => setChosen(new Set(p.pick(offered)))}
            >
              {p.name}
            </button>
          ))}
        </div>
        {offered.map((c) => (
          <Field key={c} label={<CapabilityLabel capability={c} />} layout="check" className="field-inline">
            <input type="checkbox" name="capabilities" value={c} checked={chosen.has(c)} onChange={(ev) => toggle(c, ev.target.checked)} />
          </Field>
        ))}
      </FieldGroup>
      <Field label="Tier">
        <select name="tier" defaultValue="standard">
          <option value="standard">standard</option>
          <option value="elevated">elevated</option>
        </select>
      </Field>
      <Field label="Expiry (optional, your local time)" error={e.expiresAt} announce>
        <input name="expiresAt" type="datetime-local" />
      </Field>
    </RecordForm>
  );
}

const TYPE_HINTS: Record<NewKey['type'], string> = {
  integration: 'For a system: a website, a booking widget.',
  personal: 'Held by one member: never more than their role allows; revoked when they leave.',
};

const KIND_HINTS: Record<NewKey['kind'], string> = {
  owner: 'Your own website or system, reading and writing for this business.',
  guest_partner: 'A partner who books for guests: it may only see the catalogue and times and book.',
};

/** Each capability in words, its API name beside it (integrators read the name in the docs). */
const CAPABILITY_LABELS: Record<Capability, string> = {
  'availability.read': 'See free times',
  'booking.create': 'Book',
  'booking.read': 'Read bookings',
  'booking.cancel': 'Cancel bookings',
  'services.read': 'Read services',
  'staff.read': 'Read staff',
  'webhook.manage': 'Manage webhooks',
  'subscription.read': 'Read the subscription',
};

function CapabilityLabel({ capability }: { capability: Capability }) {
  return (
    <>
      {CAPABILITY_LABELS[capability]} <code className="capability">{capability}</code>
    </>
  );
}

/** The usual choices, each limited to what the key's kind may hold. */
const PRESETS: Array<{ name: string; pick: (offered: readonly Capability[]) => Capability[] }> = [
  {
    name: 'Booking widget',
    pick: (o) => o.filter((c) => ['services.read', 'staff.read', 'availability.read', 'booking.create'].includes(c)),
  },
  {
    name: 'Read only',
    pick: (o) => o.filter((c) => c.endsWith('.read')),
  },
  { name: 'Full access', pick: (o) => [...o] },
];

function sameSet(a: ReadonlySet<Capability>, b: readonly Capability[]): boolean {
  return a.size === b.length && b.every((c) => a.has(c));
}
