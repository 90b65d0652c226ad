import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { CursorPager } from '../../components/CursorPager.tsx';
import { Field } from '../../components/Field.tsx';
import { when } from '../../lib/format.ts';
import { useClients } from './queries.ts';

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

  useEffect(() => {
    document.title = 'Clients · Bookings dashboard';
  }, []);

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
      <h1 id="page-title">Clients</h1>
      <form className="filters" onSubmit={submit} aria-label="Search">
        <Field label="Search clients" layout="inline" hint="A name, a phone number or an email; two letters or more.">
          <input type="search" value={typed} onChange={(e: ChangeEvent<HTMLInputElement>) => setTyped(e.target.value)} autoComplete="off" />
        </Field>
        <button type="submit">Search</button>
      </form>
      {list.isError && <p role="alert">{list.error.message}</p>}
      {list.isPending && <p className="loading">Loading clients…</p>}
      <p className="sr-only" role="status">
        {list.data && !list.isPlaceholderData ? `${list.data.clients.length}${list.data.next ? '+' : ''} clients shown` : ''}
      </p>
      {list.data && list.data.clients.length === 0 && (
        <p>{searched ? 'No client matches this search.' : 'No clients yet: every booking adds its guest here.'}</p>
      )}
      {list.data && list.data.clients.length > 0 && (
        <table className="list" aria-busy={list.isPlaceholderData}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Contact</th>
              <th scope="col">Visits</th>
              <th scope="col">No-shows</th>
              <th scope="col">Last visit</th>
              <th scope="col">Next visit</th>
              <th scope="col">Tags</th>
            </tr>
          </thead>
          <tbody>
            {list.data.clients.map((c) => (
              <tr key={c.id}>
                <td data-label="Name">
                  <Link to={`/${slug}/clients/${c.id}`}>{c.name}</Link>
                </td>
                <td data-label="Contact">
                  {c.phone && <a href={`tel:${c.phone}`}>{c.phone}</a>}
                  {c.phone && c.email && <br />}
                  {c.email && <a href={`mailto:${c.email}`}>{c.email}</a>}
                </td>
                <td data-label="Visits">{c.visits}</td>
                <td data-label="No-shows">{c.noShows}</td>
                <td data-label="Last visit">{c.lastVisitAt ? when(c.lastVisitAt) : '—'}</td>
                <td data-label="Next visit">{c.nextVisitAt ? when(c.nextVisitAt) : '—'}</td>
                <td data-label="Tags">{c.tags.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CursorPager next={list.data?.next} />
    </section>
  );
}
