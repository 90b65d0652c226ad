import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useParams } from 'react-router';
import { Dialog } from '../../components/Dialog.tsx';
import { api, unwrap } from '../../lib/api.ts';
import type { operations } from '../../lib/api-types.ts';
import { useSession } from '../auth/session.ts';

type CreateBody = operations['operatorCreateApiKey']['requestBody']['content']['application/json'];
type Capability = CreateBody['capabilities'][number];

/** Every capability of the API, in the document's order; the type check fails if one is missing. */
const CAPABILITIES = [
  'availability.read',
  'booking.create',
  'booking.read',
  'booking.cancel',
  'services.read',
  'staff.read',
  'webhook.manage',
  'subscription.read',
] as const satisfies readonly Capability[];
const exhaustive: [Exclude<Capability, (typeof CAPABILITIES)[number]>] extends [never] ? true : false = true;
void exhaustive;

/** What a guest_partner key may hold (the API refuses more). */
const GUEST_PARTNER: readonly Capability[] = ['services.read', 'staff.read', 'availability.read', 'booking.create'];

const EXPIRY_DAYS = [
  { value: '', label: 'Never' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In one year' },
];

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';
}

/**
 * API keys: the list (never a secret), `Create key` with the secret shown once and `Copy`,
 * `Revoke` after a confirmation. Owners create and revoke; managers read; the front desk has no
 * access to keys, and is told so instead of being offered what it may not do.
 */
export function ApiKeysPage() {
  const { slug = '' } = useParams();
  const { data: member } = useSession();
  const role = member?.memberships.find((m) => m.salonSlug === slug)?.role;
  const canRead = role === 'owner' || role === 'manager';
  const canWrite = role === 'owner';
  const qc = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ name: string; secret: string } | undefined>();
  const [revoking, setRevoking] = useState<{ id: string; name: string } | undefined>();

  useEffect(() => {
    document.title = 'API keys · Bookings dashboard';
  }, []);

  const keys = useQuery({
    queryKey: ['api-keys', slug],
    enabled: canRead,
    queryFn: async () => unwrap(await api.GET('/admin/v1/businesses/{slug}/api-keys', { params: { path: { slug } } })).apiKeys,
  });
  const create = useMutation({
    mutationFn: async (body: CreateBody) =>
      unwrap(await api.POST('/admin/v1/businesses/{slug}/api-keys', { params: { path: { slug } }, body })).apiKey,
    onSuccess: async (key) => {
      setCreating(false);
      if (key.secret) setSecret({ name: key.name, secret: key.secret });
      await qc.invalidateQueries({ queryKey: ['api-keys', slug] });
    },
  });
  const revoke = useMutation({
    mutationFn: async (keyId: string) => unwrap(await api.DELETE('/admin/v1/api-keys/{keyId}', { params: { path: { keyId } } })),
    onSuccess: async () => {
      setRevoking(undefined);
      await qc.invalidateQueries({ queryKey: ['api-keys', slug] });
    },
  });

  if (!canRead) {
    return (
      <section className="page" aria-labelledby="page-title">
        <h1 id="page-title">API keys</h1>
        <p>API keys are managed by the business's owners and managers.</p>
      </section>
    );
  }

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="calendar-bar">
        <h1 id="page-title">API keys</h1>
        {canWrite && (
          <button type="button" onClick={() => setCreating(true)}>
            Create key
          </button>
        )}
      </div>
      {keys.isPending && <p className="loading">Loading keys…</p>}
      {keys.isError && <p role="alert">{keys.error.message}</p>}
      {keys.data?.length === 0 && <p>No key yet.</p>}
      {keys.data && keys.data.length > 0 && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Type</th>
              <th scope="col">Capabilities</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((k) => (
              <tr key={k.id}>
                <th scope="row">{k.name}</th>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>
                  {k.type}, {k.kind === 'guest_partner' ? 'guest partner' : 'owner'}, {k.tier}
                </td>
                <td>{k.capabilities.join(', ')}</td>
                <td>{when(k.createdAt)}</td>
                <td>{when(k.expiresAt)}</td>
                <td>{when(k.lastUsedAt)}</td>
                <td>
                  {k.revokedAt ? (
                    `revoked ${when(k.revokedAt)}`
                  ) : canWrite ? (
                    <button type="button" onClick={() => setRevoking({ id: k.id, name: k.name })}>
                      Revoke
                    </button>
                  ) : (
                    'active'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <Dialog
        open={creating}
        onClose={() => {
          create.reset();
          setCreating(false);
        }}
        title="Create key"
      >
        <CreateKeyForm
          userId={member?.id}
          error={create.isError ? create.error.message : undefined}
          pending={create.isPending}
          onSubmit={(body) => create.mutate(body)}
          onCancel={() => {
            create.reset();
            setCreating(false);
          }}
        />
      </Dialog>

      <Dialog open={secret !== undefined} onClose={() => setSecret(undefined)} title="New key">
        {secret && <SecretOnce name={secret.name} secret={secret.secret} onDone={() => setSecret(undefined)} />}
      </Dialog>

      <Dialog
        open={revoking !== undefined}
        onClose={() => {
          revoke.reset();
          setRevoking(undefined);
        }}
        title="Revoke key"
      >
        {revoking && (
          <>
            <p>
              Revoke <strong>{revoking.name}</strong>? Every call with it is refused from now on. This cannot be undone.
            </p>
            {revoke.isError && <p role="alert">{revoke.error.message}</p>}
            <div className="form-actions">
              <button type="button" className="danger" disabled={revoke.isPending} onClick={() => revoke.mutate(revoking.id)}>
                Revoke key
              </button>
              <button
                type="button"
                onClick={() => {
                  revoke.reset();
                  setRevoking(undefined);
                }}
              >
                Keep it
              </button>
            </div>
          </>
        )}
      </Dialog>
    </section>
  );
}

function CreateKeyForm(props: {
  userId: string | undefined;
  error: string | undefined;
  pending: boolean;
  onSubmit: (body: CreateBody) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [kind, setKind] = useState<CreateBody['kind']>('owner');
  const offered = kind === 'guest_partner' ? CAPABILITIES.filter((c) => GUEST_PARTNER.includes(c)) : CAPABILITIES;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const type = f.get('type') === 'personal' ? 'personal' : 'integration';
    const days = Number(f.get('expires') || 0);
    props.onSubmit({
      name: String(f.get('name') ?? '').trim(),
      type,
      kind,
      capabilities: offered.filter((c) => f.getAll('capabilities').includes(c)),
      tier: f.get('tier') === 'elevated' ? 'elevated' : 'standard',
      ...(days > 0 ? { expiresAt: new Date(Date.now() + days * 86_400_000).toISOString() } : {}),
      ...(type === 'personal' && props.userId ? { userId: props.userId } : {}),
    });
  };
  const f = (n: string) => `${id}-${n}`;
  return (
    <form className="form" onSubmit={submit}>
      <label htmlFor={f('name')}>Name</label>
      <input id={f('name')} name="name" required maxLength={200} />
      <label htmlFor={f('type')}>Type</label>
      <select id={f('type')} name="type" defaultValue="integration">
        <option value="integration">Integration (a system of the business)</option>
        <option value="personal">Personal (mine)</option>
      </select>
      <label htmlFor={f('kind')}>Kind</label>
      <select
        id={f('kind')}
        name="kind"
        value={kind}
        onChange={(e) => setKind(e.target.value === 'guest_partner' ? 'guest_partner' : 'owner')}
      >
        <option value="owner">Owner (the business's own systems)</option>
        <option value="guest_partner">Guest partner (books for guests)</option>
      </select>
      <fieldset className="checks">
        <legend>Capabilities</legend>
        {offered.map((c) => (
          <label key={c}>
            <input type="checkbox" name="capabilities" value={c} defaultChecked /> {c}
          </label>
        ))}
      </fieldset>
      <label htmlFor={f('tier')}>Tier</label>
      <select id={f('tier')} name="tier" defaultValue="standard">
        <option value="standard">Standard</option>
        <option value="elevated">Elevated (higher rate limits)</option>
      </select>
      <label htmlFor={f('expires')}>Expires</label>
      <select id={f('expires')} name="expires" defaultValue="">
        {EXPIRY_DAYS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {props.error && (
        <p role="alert" className="error">
          {props.error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" disabled={props.pending}>
          Create
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The new secret, once: it is never shown again (the API never returns it after creation). */
function SecretOnce({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div className="form">
      <p>
        The key <strong>{name}</strong>. Copy it now: it is shown only this once.
      </p>
      <label htmlFor={id}>Secret</label>
      <input id={id} readOnly value={secret} onFocus={(e) => e.currentTarget.select()} className="secret" />
      <p aria-live="polite">{copied ? 'Copied.' : ''}</p>
      <div className="form-actions">
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard?.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          Copy
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
