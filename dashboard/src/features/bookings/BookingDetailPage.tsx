import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { STATUS_NAMES } from '../../lib/status.ts';
import { money, slotTime, usePhone, wallClock, zoneNote } from '../../lib/format.ts';
import { errorWords } from '../../lib/form-errors.ts';
import { useT } from '../../lib/i18n/index.ts';
import { BookingActions } from './BookingActions.tsx';
import { BookingMessages } from './BookingMessages.tsx';
import { slotOf } from '../../lib/slot.ts';
import { DepositPanel } from './DepositPanel.tsx';
import { useBooking, useBookingEvents } from './queries.ts';

export function BookingDetailPage() {
  const { slug = '', bookingId = '' } = useParams();
  const booking = useBooking(bookingId);
  const events = useBookingEvents(bookingId);
  const phone = usePhone();
  const t = useT();
  const d = t.bookingDetail;

  useEffect(() => {
    document.title = `${d.title(booking.data?.publicReference ?? '')} · ${t.signIn.heading}`;
  }, [booking.data?.publicReference, d, t]);

  if (booking.isPending) return <p className="loading">{d.loading}</p>;
  if (booking.isError) return <p role="alert">{errorWords(booking.error)}</p>;
  const b = booking.data;
  const slot = slotOf(b);
  const zone = b.requestedSlot.timezone;

  return (
    <section className="page booking-detail" aria-labelledby="page-title">
      <p>
        <Link to={`/${slug}/calendar${slot ? `?date=${slot.date}` : ''}`} className="back">
          {d.back}
        </Link>
      </p>
      <h1 id="page-title">{d.title(b.publicReference)}</h1>
      <dl className="facts">
        <dt>{d.status}</dt>
        <dd>{STATUS_NAMES[b.status]}</dd>
        <dt>{d.service}</dt>
        <dd>{b.serviceName}</dd>
        <dt>{d.price}</dt>
        <dd>{b.price ? money(b.price.amount, b.price.currency) : '—'}</dd>
        <dt>{d.staff}</dt>
        <dd>{b.staffName ?? '—'}</dd>
        <dt>{d.time}</dt>
        <dd>
          {slot ? `${slotTime(slot.date, slot.startTime)}${slot.endTime ? `–${slot.endTime}` : ''}` : '—'}
          {zoneNote(zone)}
        </dd>
        <dt>{d.bookedThrough}</dt>
        <dd>
          {b.source === 'api'
            ? d.sources.api
            : b.source === 'bookingPage'
              ? d.sources.bookingPage
              : `${d.sources.frontDesk}${b.createdBy?.name ? ` (${b.createdBy.name})` : ''}`}
        </dd>
        <dt>{d.guest}</dt>
        <dd>{b.guest.name}</dd>
        <dt>{d.phone}</dt>
        <dd>
          <a href={`tel:${b.guest.phone}`}>{phone(b.guest.phone)}</a>
        </dd>
        <dt>{d.email}</dt>
        <dd>{b.guest.email ? <a href={`mailto:${b.guest.email}`}>{b.guest.email}</a> : '—'}</dd>
        {b.note && (
          <>
            <dt>{d.note}</dt>
            <dd>{b.note}</dd>
          </>
        )}
        {b.reason && (
          <>
            <dt>{d.reason}</dt>
            <dd>{b.reason}</dd>
          </>
        )}
      </dl>

      <BookingActions booking={b} slug={slug} />
      <DepositPanel booking={b} />
      <BookingMessages slug={slug} bookingId={b.bookingId} timeZone={zone} />

      <h2 id="history-title">{d.history}</h2>
      {events.isError && <p role="alert">{errorWords(events.error)}</p>}
      <ol className="history" aria-labelledby="history-title">
        {(events.data ?? []).map((e) => (
          <li key={e.deliveryId}>
            <time dateTime={e.transition.occurredAt}>{wallClock(e.transition.occurredAt, zone)}</time>{' '}
            {d.events[e.event] ?? e.event.replace('booking.', '')}
            {e.transition.from
              ? ` (${STATUS_NAMES[e.transition.from]} → ${STATUS_NAMES[e.transition.to]})`
              : ` (${STATUS_NAMES[e.transition.to]})`}
          </li>
        ))}
      </ol>
    </section>
  );
}
