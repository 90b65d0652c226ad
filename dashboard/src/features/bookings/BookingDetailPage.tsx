import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { Temporal } from 'temporal-polyfill';
import { STATUS_NAMES } from '../../lib/status.ts';
import { money, usePhone, zoneNote } from '../../lib/format.ts';
import { BookingActions } from './BookingActions.tsx';
import { BookingMessages } from './BookingMessages.tsx';
import { slotOf } from './slot.ts';
import { DepositPanel } from './DepositPanel.tsx';
import { useBooking, useBookingEvents } from './queries.ts';

/** An instant as the location's wall clock. */
function localTime(iso: string, timeZone: string): string {
  return Temporal.Instant.from(iso).toZonedDateTimeISO(timeZone).toPlainDateTime().toString({ smallestUnit: 'minute' }).replace('T', ' ');
}

export function BookingDetailPage() {
  const { slug = '', bookingId = '' } = useParams();
  const booking = useBooking(bookingId);
  const events = useBookingEvents(bookingId);
  const phone = usePhone();

  useEffect(() => {
    document.title = `Booking ${booking.data?.publicReference ?? ''} · Bookings dashboard`;
  }, [booking.data?.publicReference]);

  if (booking.isPending) return <p className="loading">Loading the booking…</p>;
  if (booking.isError) return <p role="alert">{booking.error.message}</p>;
  const b = booking.data;
  const slot = slotOf(b);
  const zone = b.requestedSlot.timezone;

  return (
    <section className="page booking-detail" aria-labelledby="page-title">
      <p>
        <Link to={`/${slug}/calendar${slot ? `?date=${slot.date}` : ''}`} className="back">
          Back to the calendar
        </Link>
      </p>
      <h1 id="page-title">Booking {b.publicReference}</h1>
      <dl className="facts">
        <dt>Status</dt>
        <dd>{STATUS_NAMES[b.status]}</dd>
        <dt>Service</dt>
        <dd>{b.serviceName}</dd>
        <dt>Price</dt>
        <dd>{b.price ? money(b.price.amount, b.price.currency) : '—'}</dd>
        <dt>Staff</dt>
        <dd>{b.staffName ?? '—'}</dd>
        <dt>Time</dt>
        <dd>
          {slot ? `${slot.date} ${slot.startTime}${slot.endTime ? `–${slot.endTime}` : ''}` : '—'}
          {zoneNote(zone)}
        </dd>
        <dt>Booked through</dt>
        <dd>
          {b.source === 'api'
            ? 'API'
            : b.source === 'bookingPage'
              ? 'Booking page'
              : `Front desk${b.createdBy?.name ? ` (${b.createdBy.name})` : ''}`}
        </dd>
        <dt>Guest</dt>
        <dd>{b.guest.name}</dd>
        <dt>Phone</dt>
        <dd>
          <a href={`tel:${b.guest.phone}`}>{phone(b.guest.phone)}</a>
        </dd>
        <dt>Email</dt>
        <dd>{b.guest.email ? <a href={`mailto:${b.guest.email}`}>{b.guest.email}</a> : '—'}</dd>
        {b.note && (
          <>
            <dt>Note</dt>
            <dd>{b.note}</dd>
          </>
        )}
        {b.reason && (
          <>
            <dt>Reason</dt>
            <dd>{b.reason}</dd>
          </>
        )}
      </dl>

      <BookingActions booking={b} slug={slug} />
      <DepositPanel booking={b} />
      <BookingMessages slug={slug} bookingId={b.bookingId} timeZone={zone} />

      <h2 id="history-title">History</h2>
      {events.isError && <p role="alert">{events.error.message}</p>}
      <ol className="history" aria-labelledby="history-title">
        {(events.data ?? []).map((e) => (
          <li key={e.deliveryId}>
            <time dateTime={e.transition.occurredAt}>{localTime(e.transition.occurredAt, zone)}</time> {e.event.replace('booking.', '')}
            {e.transition.from
              ? ` (${STATUS_NAMES[e.transition.from]} → ${STATUS_NAMES[e.transition.to]})`
              : ` (${STATUS_NAMES[e.transition.to]})`}
          </li>
        ))}
      </ol>
    </section>
  );
}
