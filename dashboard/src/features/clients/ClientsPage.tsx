import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { CursorPager } from '../../components/CursorPager.tsx';
import { Field } from '../../components/Field.tsx';
import { when } from '../../lib/format.ts';
import { useT } from '../../lib/i18n/index.ts';
import { useClients } from './queries.ts';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { clientsWords } from './words.ts';

/** Typing pauses this long before the list is searched: one request per word, not per key. */
const TYPING_MS = 250;

/**
 * Clients: everyone who has booked, by name; `Search clients` finds part of a name (with or without
 * accents), an email or a phone number as it is typed. The search and the page live in the URL.
 */
export function ClientsPage() {
  const { slug = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const cursor = params.get('cursor') || undefined;
  const [typed, setTyped] = useState(q);
  // The API searches from 2 characters; 1 character lists everyone, as an empty field does.
  const searched = q.trim().length >= 2 ? q.trim() : undefined;
  const list = useClients(slug, searched, cursor);
  const tr = useT();
  const w = usePageWords(clientsWords);

  useEffect(() => {
    document.title = tr.common.docTitle(w.title);
  }, [tr, w]);

  useEffect(() => {
    if (typed === q) return;
    const t = setTimeout(() => setParams(typed ? new URLSearchParams({ q: typed }) : new URLSearchParams(), { replace: true }), TYPING_MS);
    return () => clearTimeout(t);
  }, [typed, q, setParams]);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setParams(typed ? new URLSearchParams({ q: typed }) : new URLSearchParams());
  };

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{w.title}</h1>
      <form className="filters" onSubmit={submit} aria-label={w.search}>
        <Field label={w.searchLabel} layout="inline" hint={w.searchHint}>
          <input type="search" value={typed} onChange={(e: ChangeEvent<HTMLInputElement>) => setTyped(e.target.value)} autoComplete="off" />
        </Field>
        <button type="submit">{w.search}</button>
      </form>
      {list.isError && <p role="alert">{list.error.message}</p>}
      {list.isPending && <p className="loading">{w.loading}</p>}
      <p className="sr-only" role="status">
        {list.data && !list.isPlaceholderData ? w.shown(`${list.data.clients.length}${list.data.next ? '+' : ''}`) : ''}
      </p>
      {list.data && list.data.clients.length === 0 && <p>{searched ? w.noMatch : w.none}</p>}
      {list.data && list.data.clients.length > 0 && (
        <table className="list" aria-busy={list.isPlaceholderData}>
          <thead>
            <tr>
              <th scope="col">{tr.common.name}</th>
              <th scope="col">{w.contact}</th>
              <th scope="col">{w.visits}</th>
              <th scope="col">{w.noShows}</th>
              <th scope="col">{w.lastVisit}</th>
              <th scope="col">{w.nextVisit}</th>
              <th scope="col">{w.tags}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.clients.map((c) => (
              <tr key={c.id}>
                <td data-label={tr.common.name}>
                  <Link to={`/${slug}/clients/${c.id}`}>{c.name}</Link>
                </td>
                <td data-label={w.contact}>
                  {c.phone && <a href={`tel:${c.phone}`}>{c.phone}</a>}
                  {c.phone && c.email && <br />}
                  {c.email && <a href={`mailto:${c.email}`}>{c.email}</a>}
                </td>
                <td data-label={w.visits}>{c.visits}</td>
                <td data-label={w.noShows}>{c.noShows}</td>
                <td data-label={w.lastVisit}>{c.lastVisitAt ? when(c.lastVisitAt) : '—'}</td>
                <td data-label={w.nextVisit}>{c.nextVisitAt ? when(c.nextVisitAt) : '—'}</td>
                <td data-label={w.tags}>{c.tags.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CursorPager next={list.data?.next} />
    </section>
  );
}
