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
import { useT } from '../../lib/i18n/index.ts';
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
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { apiKeysWords } from './words.ts';

/**
 * API keys (business-side.md): the list (never a secret), `Create key` (owner) with the secret
 * shown once with `Copy`, `Revoke` (owner) behind a confirmation. A manager sees the list
 * read-only; front desk may not read keys, and the page says so.
 */
export function ApiKeysPage() {
  const { slug = '' } = useParams();
  const role = useRole(slug);
  const t = useT();
  const w = usePageWords(apiKeysWords);
  const owner = role === 'owner';
  const mayRead = role === 'owner' || role === 'manager';
  const keys = useApiKeys(slug, mayRead);
  const revoke = useRevokeKey(slug);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ name: string; secret: string } | undefined>();
  const [revoking, setRevoking] = useState<{ id: string; name: string } | undefined>();

  useEffect(() => {
    document.title = t.common.docTitle(w.title);
  }, [t, w]);

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{w.title}</h1>
      {role === 'frontDesk' && <NotForRole what={w.title} who={w.notForRoleWho} />}
      {role === 'manager' && <p className="notice">{w.managerNotice}</p>}
      {owner && (
        <div className="actions">
          <button type="button" onClick={() => setCreating(true)}>
            {w.createKey}
          </button>
        </div>
      )}
      {secret && (
        <SecretOnce label={w.secretOf(secret.name)} secret={secret.secret} note={w.secretNote} onDone={() => setSecret(undefined)} />
      )}
      {mayRead && keys.isError && <p role="alert">{keys.error.message}</p>}
      {mayRead && keys.isPending && <p className="loading">{w.loading}</p>}
      {keys.data && keys.data.length === 0 && <p>{w.none}</p>}
      {keys.data && keys.data.length > 0 && (
        <table className="list wide">
          <thead>
            <tr>
              <th scope="col">{t.common.name}</th>
              <th scope="col">{w.type}</th>
              <th scope="col">{w.kind}</th>
              <th scope="col">{w.capabilities}</th>
              <th scope="col">{w.tier}</th>
              <th scope="col">{w.prefix}</th>
              <th scope="col">{w.created}</th>
              <th scope="col">{w.expires}</th>
              <th scope="col">{w.revoked}</th>
              <th scope="col">{w.lastUsed}</th>
              {owner && <th scope="col">{t.common.actions}</th>}
            </tr>
          </thead>
          <tbody>
            {keys.data.map((k) => (
              <tr key={k.id}>
                <th scope="row">{k.name}</th>
                <td data-label={w.type}>{w.values[k.type]}</td>
                <td data-label={w.kind}>{w.values[k.kind]}</td>
                <td data-label={w.capabilities}>{k.capabilities.join(', ')}</td>
                <td data-label={w.tier}>{w.values[k.tier] ?? k.tier}</td>
                <td data-label={w.prefix}>
                  <code>{k.prefix}…</code>
                </td>
                <td data-label={w.created}>{when(k.createdAt)}</td>
                <td data-label={w.expires}>{k.expiresAt ? when(k.expiresAt) : t.common.never}</td>
                <td data-label={w.revoked}>{k.revokedAt ? when(k.revokedAt) : t.common.no}</td>
                <td data-label={w.lastUsed}>{k.lastUsedAt ? when(k.lastUsedAt) : t.common.never}</td>
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
                        {w.revoke}
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
        <Dialog open={creating} onClose={() => setCreating(false)} title={w.createTitle}>
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
        title={w.revokeTitle(revoking?.name ?? '')}
        confirm={w.revokeConfirm}
        pending={revoke.isPending}
        error={revoke.isError ? revoke.error.message : undefined}
        onClose={() => setRevoking(undefined)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSuccess: () => setRevoking(undefined) })}
      >
        <p>{w.revokeText}</p>
      </ConfirmDialog>
    </section>
  );
}

function CreateKeyForm(props: { slug: string; onCreated: (name: string, secret: string) => void; onCancel: () => void }) {
  const create = useCreateKey(props.slug);
  const t = useT();
  const w = usePageWords(apiKeysWords);
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
      submitLabel={w.create}
      onSubmit={submit}
      onCancel={props.onCancel}
      cancelLabel={t.common.back}
    >
      <Field label={t.common.name} error={e.name} announce>
        <input name="name" required maxLength={100} />
      </Field>
      <Field label={w.type} hint={w.typeHints[type]}>
        <select name="type" value={type} onChange={(ev) => setType(ev.target.value as NewKey['type'])}>
          <option value="integration">{w.integration}</option>
          <option value="personal">{w.personal}</option>
        </select>
      </Field>
      {type === 'personal' && (
        <>
          <Field label={w.member} error={e.userId} announce>
            <select name="userId" required>
              <option value="">{w.chooseMember}</option>
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
      <Field label={w.kind} hint={w.kindHints[kind]}>
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
          <option value="owner">{w.ownKind}</option>
          <option value="guest_partner">{w.partnerKind}</option>
        </select>
      </Field>
      <FieldGroup legend={w.capabilities} error={e.capabilities} announce>
        <div className="presets">
          {PRESETS.map((p) => (
            <button
              key={p.name}
              type="button"
              aria-pressed={sameSet(chosen, p.pick(offered))}
              onClick={() => setChosen(new Set(p.pick(offered)))}
            >
              {w.presets[p.name]}
            </button>
          ))}
        </div>
        {offered.map((c) => (
          <Field key={c} label={<CapabilityLabel capability={c} />} layout="check" className="field-inline">
            <input type="checkbox" name="capabilities" value={c} checked={chosen.has(c)} onChange={(ev) => toggle(c, ev.target.checked)} />
          </Field>
        ))}
      </FieldGroup>
      <Field label={w.tier}>
        <select name="tier" defaultValue="standard">
          <option value="standard">{w.standard}</option>
          <option value="elevated">{w.elevated}</option>
        </select>
      </Field>
      <Field label={w.expiry} error={e.expiresAt} announce>
        <input name="expiresAt" type="datetime-local" />
      </Field>
    </RecordForm>
  );
}

/** Each capability in words, its API name beside it (integrators read the name in the docs). */
function CapabilityLabel({ capability }: { capability: Capability }) {
  const w = usePageWords(apiKeysWords);
  return (
    <>
      {w.capabilityNames[capability]} <code className="capability">{capability}</code>
    </>
  );
}

/** The usual choices, each limited to what the key's kind may hold. */
const PRESETS: Array<{ name: keyof typeof apiKeysWords.en.presets; pick: (offered: readonly Capability[]) => Capability[] }> = [
  {
    name: 'widget',
    pick: (o) => o.filter((c) => ['services.read', 'staff.read', 'availability.read', 'booking.create'].includes(c)),
  },
  {
    name: 'readOnly',
    pick: (o) => o.filter((c) => c.endsWith('.read')),
  },
  { name: 'full', pick: (o) => [...o] },
];

function sameSet(a: ReadonlySet<Capability>, b: readonly Capability[]): boolean {
  return a.size === b.length && b.every((c) => a.has(c));
}
