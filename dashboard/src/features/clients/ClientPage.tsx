import { type FormEvent, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Field } from '../../components/Field.tsx';
import type { Client } from '../../lib/api.ts';
import { slotTime, when } from '../../lib/format.ts';
import { useT } from '../../lib/i18n/index.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { STATUS_NAMES } from '../../lib/status.ts';
import { slotOf } from '../../lib/slot.ts';
import { useClient, usePatchClient } from './queries.ts';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { clientsWords } from './words.ts';

/** A client's page: contact, figures, the salon's notes and tags, and every booking, newest first. */
export function ClientPage() {
  const { slug = '', clientId = '' } = useParams();
  const client = useClient(clientId);
  const t = useT();
  const w = usePageWords(clientsWords);

  useEffect(() => {
    document.title = t.common.docTitle(client.data?.name ?? w.client);
  }, [client.data?.name, t, w]);

  if (client.isError) return <p role="alert">{client.error.message}</p>;
  if (!client.data) return <p className="loading">{w.loadingOne}</p>;
  const c = client.data;
  return (
    <section className="page" aria-labelledby="page-title">
      <p>
        <Link to={`/${slug}/clients`}>{w.all}</Link>
      </p>
      <h1 id="page-title">{c.name}</h1>
      <dl className="facts">
        <dt>{t.bookingDetail.phone}</dt>
        <dd>{c.phone ? <a href={`tel:${c.phone}`}>{c.phone}</a> : '—'}</dd>
        <dt>{t.signIn.email}</dt>
        <dd>{c.email ? <a href={`mailto:${c.email}`}>{c.email}</a> : '—'}</dd>
        <dt>{w.visits}</dt>
        <dd>{c.visits}</dd>
        <dt>{w.noShows}</dt>
        <dd>{c.noShows}</dd>
        <dt>{w.nextVisit}</dt>
        <dd>{c.nextVisitAt ? when(c.nextVisitAt) : '—'}</dd>
      </dl>
      <NotesForm key={`${c.id}-${c.notes}-${c.tags.join('\u0000')}`} client={c} />
      <h2>{t.bookingDetail.history}</h2>
      {c.bookings.length === 0 ? (
        <p>{w.noBookings}</p>
      ) : (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{t.bookingDetail.time}</th>
              <th scope="col">{t.bookingDetail.service}</th>
              <th scope="col">{t.bookingDetail.staff}</th>
              <th scope="col">{t.common.status}</th>
              <th scope="col">{t.list.reference}</th>
            </tr>
          </thead>
          <tbody>
            {c.bookings.map((b) => {
              const slot = slotOf(b);
              return (
                <tr key={b.bookingId}>
                  <td data-label={t.bookingDetail.time}>{slot ? slotTime(slot.date, slot.startTime) : '—'}</td>
                  <td data-label={t.bookingDetail.service}>{b.serviceName}</td>
                  <td data-label={t.bookingDetail.staff}>{b.staffName ?? '—'}</td>
                  <td data-label={t.common.status}>{STATUS_NAMES[b.status]}</td>
                  <td data-label={t.list.reference}>
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
  const w = usePageWords(clientsWords);
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
      <h2 id="notes-title">{w.notesTitle}</h2>
      <Field label={w.notes} error={errors.fields.notes} hint={w.notesHint}>
        <textarea value={notes} onChange={(e) => setNotes(e.target.value)} rows={4} maxLength={5000} />
      </Field>
      <Field label={w.tags} error={errors.fields.tags} hint={w.tagsHint}>
        <input value={tags} onChange={(e) => setTags(e.target.value)} />
      </Field>
      {errors.form && <p role="alert">{errors.form}</p>}
      <div className="actions">
        <button type="submit" disabled={patch.isPending}>
          {w.saveNotes}
        </button>
      </div>
    </form>
  );
}
