import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { api, type BusinessBooking, unwrap } from '../../lib/api.ts';
import { STATUS_NAMES } from '../../lib/status.ts';
import { usePhone } from '../../lib/format.ts';
import { errorWords } from '../../lib/form-errors.ts';
import { useT } from '../../lib/i18n/index.ts';
import { bookingKeys } from '../../lib/query-keys.ts';
import { BookingActions } from './BookingActions.tsx';
import { slotOf } from './slot.ts';

/** New requests show up without a reload: the inbox is read again every 5 s (docs/dashboard.md). */
export const REQUESTS_POLL_MS = 5_000;

async function bookingsWithStatus(slug: string, status: 'requested' | 'rescheduleProposed'): Promise<BusinessBooking[]> {
  const out: BusinessBooking[] = [];
  let cursor: string | undefined;
  // Every page: an inbox is short, and one the desk does not empty must still show all of it.
  for (let i = 0; i < 20; i++) {
    const r = await api.GET('/admin/v1/businesses/{slug}/bookings', {
      params: { path: { slug }, query: { status, limit: 100, ...(cursor ? { cursor } : {}) } },
    });
    out.push(...unwrap(r).bookings);
    cursor = r.data?.meta.cursor;
    if (!cursor) break;
  }
  return out;
}

export function useRequests(slug: string) {
  return useQuery({
    queryKey: bookingKeys.requests(slug),
    queryFn: async () => {
      const [requested, proposed] = await Promise.all([
        bookingsWithStatus(slug, 'requested'),
        bookingsWithStatus(slug, 'rescheduleProposed'),
      ]);
      return [...requested, ...proposed].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
    },
    refetchInterval: REQUESTS_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

/** Requests: every `requested` and `rescheduleProposed` booking, newest first, to decide. */
export function RequestsPage() {
  const { slug = '' } = useParams();
  const requests = useRequests(slug);
  const phone = usePhone();
  const t = useT();
  const r = t.requests;
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
                  {slot ? `${slot.date} ${slot.startTime}` : ''} {b.staffName ? r.withStaff(b.staffName) : ''} · {STATUS_NAMES[b.status]} ·{' '}
                  <a href={`tel:${b.guest.phone}`}>{phone(b.guest.phone)}</a>
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
