import { CursorPager } from '../../components/CursorPager.tsx';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { NotForRole } from '../../components/NotForRole.tsx';
import { SecretOnce } from '../../components/SecretOnce.tsx';
import { useRole } from '../../lib/authorization.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { when } from '../../lib/format.ts';
import { useT } from '../../lib/i18n/index.ts';
import { Field } from '../../components/Field.tsx';
import { DateRangeFields } from '../../components/DateRangeFields.tsx';
import {
  type DeliveryQuery,
  EVENTS,
  OUTCOMES,
  useDeleteWebhook,
  useDeliveries,
  useRedeliver,
  useRotateSecret,
  useSaveWebhook,
  useWebhook,
} from './queries.ts';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { webhooksWords } from './words.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Webhooks (business-side.md): the owner sets the `URL` (`Save`), sees the signing secret once
 * (on creation and after `Rotate secret`), deletes the webhook; the delivery log (owner and
 * manager) with the public log's filters (event, outcome, date range) and cursor paging, each
 * record's attempts and, for the owner, `Redeliver`. Front desk may not read any of it.
 */
export function WebhooksPage() {
  const { slug = '' } = useParams();
  const role = useRole(slug);
  const owner = role === 'owner';
  const t = useT();
  const w = usePageWords(webhooksWords);

  useEffect(() => {
    document.title = t.common.docTitle(w.title);
  }, [t, w]);

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{w.title}</h1>
      {role === 'frontDesk' && <NotForRole what={w.notForRoleWhat} who={w.notForRoleWho} />}
      {role === 'manager' && <p className="notice">{w.managerNotice}</p>}
      {owner && <WebhookConfig slug={slug} />}
      {(owner || role === 'manager') && <DeliveryLog slug={slug} mayRedeliver={owner} />}
    </section>
  );
}

function WebhookConfig({ slug }: { slug: string }) {
  const id = useId();
  const t = useT();
  const w = usePageWords(webhooksWords);
  const config = useWebhook(slug, true);
  const save = useSaveWebhook(slug);
  const rotate = useRotateSecret(slug);
  const remove = useDeleteWebhook(slug);
  const [secret, setSecret] = useState<string | undefined>();
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | undefined>();
  const [saved, setSaved] = useState(false);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const url = String(new FormData(e.currentTarget).get('url') ?? '').trim();
    setSaved(false);
    save.mutate(url, {
      onSuccess: (w) => {
        setSaved(true);
        if (w.signingSecret) setSecret(w.signingSecret);
      },
    });
  };
  // Every refusal of a save is about the URL (the URL rules, webhook.invalid_url): beside the field.
  const errors = formErrors(save.error, ['url']);
  const urlError = errors.fields.url ?? errors.form;
  const current = config.data;

  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{w.configuration}</h2>
      {config.isError && <p role="alert">{config.error.message}</p>}
      {config.isPending && <p className="loading">{w.loading}</p>}
      {!config.isPending && !config.isError && (
        <>
          <p>{current ? w.sentTo(current.url, when(current.createdAt), when(current.updatedAt)) : w.none}</p>
          <form className="filters" onSubmit={submit}>
            <Field label="URL" layout="inline" error={urlError} announce>
              <input name="url" type="url" required maxLength={500} size={50} key={current?.url ?? ''} defaultValue={current?.url ?? ''} />
            </Field>
            <button type="submit" disabled={save.isPending}>
              {t.common.save}
            </button>
            <span role="status">{saved && !save.isPending ? t.common.saved : ''}</span>
          </form>
          {secret && <SecretOnce label={w.secretLabel} secret={secret} note={w.secretNote} onDone={() => setSecret(undefined)} />}
          {current && (
            <div className="actions">
              <button
                type="button"
                onClick={() => {
                  rotate.reset();
                  setConfirm('rotate');
                }}
              >
                {w.rotate}
              </button>
              <button
                type="button"
                onClick={() => {
                  remove.reset();
                  setConfirm('delete');
                }}
              >
                {w.delete}
              </button>
            </div>
          )}
        </>
      )}
      <ConfirmDialog
        open={confirm === 'rotate'}
        title={w.rotateTitle}
        confirm={w.rotateConfirm}
        pending={rotate.isPending}
        error={rotate.isError ? rotate.error.message : undefined}
        onClose={() => setConfirm(undefined)}
        onConfirm={() =>
          rotate.mutate(undefined, {
            onSuccess: (w) => {
              setConfirm(undefined);
              if (w.signingSecret) setSecret(w.signingSecret);
            },
          })
        }
      >
        <p>{w.rotateText}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'delete'}
        title={w.deleteTitle}
        confirm={w.deleteConfirm}
        pending={remove.isPending}
        error={remove.isError ? remove.error.message : undefined}
        onClose={() => setConfirm(undefined)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setConfirm(undefined);
              setSecret(undefined);
            },
          })
        }
      >
        <p>{w.deleteText}</p>
      </ConfirmDialog>
    </section>
  );
}

function DeliveryLog({ slug, mayRedeliver }: { slug: string; mayRedeliver: boolean }) {
  const id = useId();
  const t = useT();
  const w = usePageWords(webhooksWords);
  const word = (s: string) => w.words[s] ?? s.replace('_', ' ');
  const [params, setParams] = useSearchParams();
  const event = EVENTS.find((e) => e === params.get('event'));
  const outcome = OUTCOMES.find((o) => o === params.get('outcome'));
  const from = DATE.test(params.get('from') ?? '') ? params.get('from')! : undefined;
  const to = DATE.test(params.get('to') ?? '') ? params.get('to')! : undefined;
  const cursor = params.get('cursor') || undefined;
  const query: DeliveryQuery = {
    ...(event ? { event } : {}),
    ...(outcome ? { outcome } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(cursor ? { cursor } : {}),
  };
  const log = useDeliveries(slug, query, true);
  const redeliver = useRedeliver(slug);

  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const p = new URLSearchParams();
    for (const k of ['event', 'outcome', 'from', 'to']) {
      const v = String(data.get(k) ?? '');
      if (v) p.set(k, v);
    }
    // The same filters again: read the log again (a new delivery shows without a reload).
    if (p.toString() === params.toString()) void log.refetch();
    else setParams(p);
  };

  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{w.log}</h2>
      <form className="filters" onSubmit={apply} aria-label={w.filters}>
        <Field label={w.event} layout="inline">
          <select name="event" defaultValue={event ?? ''}>
            <option value="">{t.common.any}</option>
            {EVENTS.map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
          </select>
        </Field>
        <Field label={w.outcome} layout="inline">
          <select name="outcome" defaultValue={outcome ?? ''}>
            <option value="">{t.common.any}</option>
            {OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {word(o)}
              </option>
            ))}
          </select>
        </Field>
        <DateRangeFields from={from} to={to} />
        <button type="submit">{t.list.apply}</button>
      </form>
      <p className="muted">{w.logHint}</p>
      {log.isError && <p role="alert">{log.error.message}</p>}
      {log.isPending && <p className="loading">{w.loadingLog}</p>}
      {redeliver.isError && <p role="alert">{redeliver.error.message}</p>}
      {log.data && log.data.deliveries.length === 0 && <p>{w.noDelivery}</p>}
      {log.data && log.data.deliveries.length > 0 && (
        <table className="list wide" aria-busy={log.isPlaceholderData}>
          <thead>
            <tr>
              <th scope="col">{w.event}</th>
              <th scope="col">{w.booking}</th>
              <th scope="col">{w.happened}</th>
              <th scope="col">{t.common.status}</th>
              <th scope="col">{w.attempts}</th>
              {mayRedeliver && <th scope="col">{t.common.actions}</th>}
            </tr>
          </thead>
          <tbody>
            {log.data.deliveries.map((d) => (
              <tr key={d.deliveryId}>
                <th scope="row">
                  {d.event} <span className="muted">#{d.sequence}</span>
                </th>
                <td data-label={w.booking}>
                  <code>{d.bookingId}</code>
                </td>
                <td data-label={w.happened}>{when(d.createdAt)}</td>
                <td data-label={t.common.status}>
                  {word(d.status)}
                  {d.nextAttemptAt ? w.next(when(d.nextAttemptAt)) : ''}
                </td>
                <td data-label={w.attempts}>
                  <details>
                    <summary>{w.attemptCount(d.attemptCount)}</summary>
                    <ol>
                      {d.attempts.map((a) => (
                        <li key={a.attempt}>
                          {when(a.startedAt)}: {word(a.outcome)}
                          {a.statusCode !== null ? `, HTTP ${a.statusCode}` : ''}
                          {a.error ? `, ${a.error}` : ''} ({a.durationMs} ms)
                        </li>
                      ))}
                    </ol>
                  </details>
                </td>
                {mayRedeliver && (
                  <td>
                    <button
                      type="button"
                      disabled={redeliver.isPending && redeliver.variables === d.deliveryId}
                      onClick={() => redeliver.mutate(d.deliveryId)}
                    >
                      {w.redeliver}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CursorPager next={log.data?.next} />
    </section>
  );
}
