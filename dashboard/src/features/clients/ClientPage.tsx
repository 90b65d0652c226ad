import { type FormEvent, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Field } from '../../components/Field.tsx';
import type { Client } from '../../lib/api.ts';
import { when } from '../../lib/format.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { STATUS_NAMES } from '../../lib/status.ts';
import { slotOf } from '../../lib/slot.ts';
import { useClient, usePatchClient } from './queries.ts';

/** A client's page: contact, figures, the salon's notes and tags, and every booking, newest first. */
export function ClientPage() {
  const { slug = '', clientId = '' } = useParams();
  const client = useClient(clientId);

  useEffect(() => {
    document.title = `${client.data?.name ?? 'Client'} · Bookings dashboard`;
  }, [client.data?.name]);

  if (client.isError) return <p role="alert">{client.error.message}</p>;
  if (!client.data) return <p className="loading">Loading the client…</p>;
  const c = client.data;
  return (
    <section className="page" aria-labelledby="page-title">
      <p>
        <Link to={`/${slug}/clients`}>All clients</Link>
      </p>
      <h1 id="page-title">{c.name}</h1>
      <dl className="facts">
        <dt>Phone</dt>
        <dd>{c.phone ? <a href={`tel:${c.phone}`}>{c.phone}</a> : '—'}</dd>
        <dt>Email</dt>
        <dd>{c.email ? <a href={`mailto:${c.email}`}>{c.email}</a> : '—'}</dd>
        <dt>Visits</dt>
        <dd>{c.visits}</dd>
        <dt>No-shows</dt>
        <dd>{c.noShows}</dd>
        <dt>Next visit</dt>
        <dd>{c.nextVisitAt ? when(c.nextVisitAt) : '—'}</dd>
      </dl>
      <NotesForm key={`${c.id}-${c.notes}-${c.tags.join('\u0000')}`} client={c} />
      <h2>History</h2>
      {c.bookings.length === 0 ? (
        <p>No bookings.</p>
      ) : (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Service</th>
              <th scope="col">Staff</th>
              <th scope="col">Status</th>
              <th scope="col">Reference</th>
            </tr>
          </thead>
          <tbody>
            {c.bookings.map((b) => {
              const slot = slotOf(b);
              return (
                <tr key={b.bookingId}>
                  <td data-label="Time">{slot ? `${slot.date} ${slot.startTime}` : '—'}</td>
                  <td data-label="Service">{b.serviceName}</td>
                  <td data-label="Staff">{b.staffName ?? '—'}</td>
                  <td data-label="Status">{STATUS_NAMES[b.status]}</td>
                  <td data-label="Reference">
                    <Link to={`/${slug}/bookings/${b.bookingId}`}>{b.publicReference}</Link>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Notes and tags, saved together; tags are typed separated by commas. */
function NotesForm({ client }: { client: Client }) {
  const patch = usePatchClient(client.id);
  const [notes, setNotes] = useState(client.notes);
  const [tags, setTags] = useState(client.tags.join(', '));
  const errors = formErrors(patch.error, ['notes', 'tags']);
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    patch.mutate({
      notes,
      tags: tags
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    });
  };
  return (
    <form className="form" onSubmit={save} aria-labelledby="notes-title">
      <h2 id="notes-title">Notes and tags</h2>
      <Field label="Notes" error={errors.fields.notes} hint="What to remember: a patch test, an allergy, a preference.">
        <textarea value={notes} onChange={(e) => setNotes(e.target.value)} rows={4} maxLength={5000} />
      </Field>
      <Field label="Tags" error={errors.fields.tags} hint="Separated by commas, for example: VIP, patch test done.">
        <input value={tags} onChange={(e) => setTags(e.target.value)} />
      </Field>
      {errors.form && <p role="alert">{errors.form}</p>}
      <div className="actions">
        <button type="submit" disabled={patch.isPending}>
          Save notes
        </button>
      </div>
    </form>
  );
}
