import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { STATUS_NAMES } from '../../lib/status.ts';
import { useRequests } from './requests-query.ts';
import { BookingActions } from './BookingActions.tsx';
import { slotOf } from '../../lib/slot.ts';

/** Requests: every `requested` and `rescheduleProposed` booking, newest first, to decide. */
export function RequestsPage() {
  const { slug = '' } = useParams();
  const requests = useRequests(slug);
  useEffect(() => {
    document.title = 'Requests · Bookings dashboard';
  }, []);
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Requests</h1>
      {requests.isPending && <p className="loading">Loading requests…</p>}
      {requests.isError && <p role="alert">{requests.error.message}</p>}
      {requests.data?.length === 0 && <p>No request is waiting.</p>}
      <ul className="requests" aria-label="Requests waiting">
        {requests.data?.map((b) => {
          const slot = slotOf(b);
          return (
            <li key={b.bookingId} className="request">
              <article aria-label={`${b.guest.name}, ${b.serviceName}`}>
                <h2>
                  <Link to={`/${slug}/bookings/${b.bookingId}`}>
                    {b.guest.name} · {b.serviceName}
                  </Link>
                </h2>
                <p>
                  {slot ? `${slot.date} ${slot.startTime}` : ''} {b.staffName ? `with ${b.staffName}` : ''} · {STATUS_NAMES[b.status]} ·{' '}
                  <a href={`tel:${b.guest.phone}`}>{b.guest.phone}</a>
                </p>
                <BookingActions booking={b} slug={slug} only={['accept', 'decline', 'propose']} />
              </article>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
