import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { CursorPager } from '../../components/CursorPager.tsx';
import { DateRangeFields } from '../../components/DateRangeFields.tsx';
import { Field } from '../../components/Field.tsx';
import { api, unwrap } from '../../lib/api.ts';
import { when } from '../../lib/format.ts';
import { useT } from '../../lib/i18n/index.ts';
import { auditKeys } from '../../lib/query-keys.ts';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { auditLogWords } from './words.ts';

const PAGE = 25;
const ACTORS = ['member', 'operator', 'guest'] as const;

/**
 * Audit log (owners and managers): who changed what, newest first, from GET …/audit-log; the
 * filters (who, what, dates) and the page live in the URL, as on Bookings. Field names only: the
 * log keeps no values.
 */
export function AuditLogPage() {
  const { slug = '' } = useParams();
  const t = useT();
  const w = usePageWords(auditLogWords);
  const [params, setParams] = useSearchParams();
  const filters = {
    actor: params.get('actor') || undefined,
    action: params.get('action') || undefined,
    from: params.get('from') || undefined,
    to: params.get('to') || undefined,
    cursor: params.get('cursor') || undefined,
  };
  const list = useQuery({
    queryKey: auditKeys.list(slug, filters),
    queryFn: async () => {
      const { cursor, ...rest } = filters;
      const query = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
      const r = await api.GET('/admin/v1/businesses/{slug}/audit-log', {
        params: { path: { slug }, query: { limit: PAGE, ...query, ...(cursor ? { cursor } : {}) } },
      });
      return { entries: unwrap(r).entries, next: r.data?.meta.cursor };
    },
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    document.title = w.docTitle;
  }, [w.docTitle]);

  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const p = new URLSearchParams();
    for (const k of ['actor', 'action', 'from', 'to']) {
      const v = String(f.get(k) ?? '').trim();
      if (v) p.set(k, v);
    }
    setParams(p);
  };
  const actorNames = { member: w.members, operator: w.operator, guest: w.guests };

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{w.title}</h1>
      <form className="filters" onSubmit={apply} aria-label={t.list.filters}>
        <Field label={w.who} layout="inline">
          <select name="actor" defaultValue={filters.actor ?? ''}>
            <option value="">{w.anyone}</option>
            {ACTORS.map((a) => (
              <option key={a} value={a}>
                {actorNames[a]}
              </option>
            ))}
          </select>
        </Field>
        <Field label={w.what} layout="inline" hint={w.whatHint}>
          <input name="action" defaultValue={filters.action ?? ''} maxLength={100} />
        </Field>
        <DateRangeFields from={filters.from} to={filters.to} />
        <button type="submit">{t.list.apply}</button>
      </form>
      {list.isError && <p role="alert">{list.error.message}</p>}
      {list.isPending && <p className="loading">{w.loading}</p>}
      {list.data && list.data.entries.length === 0 && <p>{w.none}</p>}
      {list.data && list.data.entries.length > 0 && (
        <table className="list" aria-busy={list.isPlaceholderData}>
          <thead>
            <tr>
              <th scope="col">{w.when}</th>
              <th scope="col">{w.who}</th>
              <th scope="col">{w.action}</th>
              <th scope="col">{w.record}</th>
              <th scope="col">{w.fields}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.entries.map((e) => (
              <tr key={e.id}>
                <td data-label={w.when}>{when(e.at)}</td>
                <td data-label={w.who}>
                  {e.actor.type === 'guest'
                    ? w.guestOf(e.target.id ?? '')
                    : e.actor.type === 'operator'
                      ? w.platform
                      : `${e.actor.name ?? e.actor.id}${e.actor.role ? ` (${t.shell.roles[e.actor.role as keyof typeof t.shell.roles] ?? e.actor.role})` : ''}`}
                </td>
                <td data-label={w.action}>
                  <code>{e.action}</code>
                </td>
                <td data-label={w.record}>{e.target.id ? `${e.target.type} ${e.target.id}` : e.target.type}</td>
                <td data-label={w.fields}>{e.fields.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CursorPager next={list.data?.next} />
    </section>
  );
}
