import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { STATUS_NAMES } from '../../lib/status.ts';
import { useRequests } from './requests-query.ts';
import { slotTime, usePhone } from '../../lib/format.ts';
import { errorWords } from '../../lib/form-errors.ts';
import { useT } from '../../lib/i18n/index.ts';
import { BookingActions } from './BookingActions.tsx';
import { slotOf } from '../../lib/slot.ts';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { requestsWords } from './words.ts';

/** Requests: every `requested` and `rescheduleProposed` booking, newest first, to decide. */
export function RequestsPage() {
  const { slug = '' } = useParams();
  const requests = useRequests(slug);
  const phone = usePhone();
  const t = useT();
  const r = usePageWords(requestsWords);
  useEffect(() => {
    document.title = `${t.nav.requests} · ${t.signIn.heading}`;
  }, [t]);
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{t.nav.requests}</h1>
      {requests.isPending && <p className="loading">{r.loading}</p>}
      {requests.isError && <p role="alert">{errorWords(requests.error)}</p>}
      {requests.data?.length === 0 && <p>{r.none}</p>}
      <ul className="requests" aria-label={r.waitingList}>
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
                  {slot ? slotTime(slot.date, slot.startTime) : ''} {b.staffName ? r.withStaff(b.staffName) : ''} · {STATUS_NAMES[b.status]}{' '}
                  · <a href={`tel:${b.guest.phone}`}>{phone(b.guest.phone)}</a>
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
