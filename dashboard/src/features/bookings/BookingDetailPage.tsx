import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Temporal } from 'temporal-polyfill';
import { Dialog } from '../../components/Dialog.tsx';
import type { BusinessBooking } from '../../lib/api.ts';
import { STATUS_NAMES } from '../../lib/status.ts';
import { useStaff } from '../calendar/queries.ts';
import { type Decision, useBooking, useBookingEvents, useDecision } from './queries.ts';

type Kind = 'decline' | 'cancel' | 'propose' | 'reschedule';

/** When the booking's time is: confirmed, else proposed, else requested (location-local). */
function slotOf(b: BusinessBooking): { date: string; startTime: string; endTime?: string } | undefined {
  if (b.confirmedSlot) return b.confirmedSlot;
  if (b.proposedSlot) return b.proposedSlot;
  if (b.requestedSlot.date && b.requestedSlot.startTime) return { date: b.requestedSlot.date, startTime: b.requestedSlot.startTime };
  return undefined;
}

function started(b: BusinessBooking, now = Temporal.Now.instant()): boolean {
  const s = b.confirmedSlot;
  if (!s) return false;
  const at = Temporal.PlainDate.from(s.date).toZonedDateTime({ timeZone: s.timezone, plainTime: Temporal.PlainTime.from(s.startTime) });
  return Temporal.Instant.compare(at.toInstant(), now) <= 0;
}

/** An instant as the location's wall clock. */
function localTime(iso: string, timeZone: string): string {
  return Temporal.Instant.from(iso).toZonedDateTimeISO(timeZone).toPlainDateTime().toString({ smallestUnit: 'minute' }).replace('T', ' ');
}

export function BookingDetailPage() {
  const { slug = '', bookingId = '' } = useParams();
  const booking = useBooking(bookingId);
  const events = useBookingEvents(bookingId);
  const decision = useDecision(bookingId);
  const [dialog, setDialog] = useState<Kind | undefined>();

  useEffect(() => {
    document.title = `Booking ${booking.data?.publicReference ?? ''} · Bookings dashboard`;
  }, [booking.data?.publicReference]);

  if (booking.isPending) return <p className="loading">Loading the booking…</p>;
  if (booking.isError) return <p role="alert">{booking.error.message}</p>;
  const b = booking.data;
  const slot = slotOf(b);
  const zone = b.requestedSlot.timezone;
  const s = b.status;
  const run = (d: Decision) => decision.mutate(d, { onSuccess: () => setDialog(undefined) });
  const pending = decision.isPending;

  return (
    <section className="page booking" aria-labelledby="page-title">
      <p>
        <Link to={`/${slug}/calendar${slot ? `?date=${slot.date}` : ''}`} className="back">
          Back to the calendar
        </Link>
      </p>
      <h1 id="page-title">Booking {b.publicReference}</h1>
      <dl className="facts">
        <dt>Status</dt>
        <dd>{STATUS_NAMES[s]}</dd>
        <dt>Service</dt>
        <dd>{b.serviceName}</dd>
        <dt>Staff</dt>
        <dd>{b.staffName ?? '—'}</dd>
        <dt>Time</dt>
        <dd>
          {slot ? `${slot.date} ${slot.startTime}${slot.endTime ? `–${slot.endTime}` : ''}` : '—'} ({zone})
        </dd>
        <dt>Guest</dt>
        <dd>{b.guest.name}</dd>
        <dt>Phone</dt>
        <dd>
          <a href={`tel:${b.guest.phone}`}>{b.guest.phone}</a>
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

      <div className="actions">
        {s === 'requested' && (
          <button type="button" disabled={pending} onClick={() => run({ action: 'accept' })}>
            Accept
          </button>
        )}
        {(s === 'requested' || s === 'rescheduleProposed') && (
          <button type="button" onClick={() => setDialog('decline')}>
            Decline
          </button>
        )}
        {(s === 'requested' || s === 'confirmed') && (
          <button type="button" onClick={() => setDialog('propose')}>
            Propose new time
          </button>
        )}
        {s === 'confirmed' && (
          <button type="button" onClick={() => setDialog('reschedule')}>
            Reschedule
          </button>
        )}
        {(s === 'requested' || s === 'confirmed' || s === 'rescheduleProposed') && (
          <button type="button" onClick={() => setDialog('cancel')}>
            Cancel booking
          </button>
        )}
        {s === 'confirmed' && started(b) && (
          <>
            <button type="button" disabled={pending} onClick={() => run({ action: 'complete' })}>
              Mark completed
            </button>
            <button type="button" disabled={pending} onClick={() => run({ action: 'noShow' })}>
              Mark no-show
            </button>
          </>
        )}
      </div>
      {decision.isError && dialog === undefined && <p role="alert">{decision.error.message}</p>}

      <h2>History</h2>
      {events.isError && <p role="alert">{events.error.message}</p>}
      <ol className="history">
        {(events.data ?? []).map((e) => (
          <li key={e.deliveryId}>
            <time dateTime={e.transition.occurredAt}>{localTime(e.transition.occurredAt, zone)}</time> {e.event.replace('booking.', '')}
            {e.transition.from
              ? ` (${STATUS_NAMES[e.transition.from]} → ${STATUS_NAMES[e.transition.to]})`
              : ` (${STATUS_NAMES[e.transition.to]})`}
          </li>
        ))}
      </ol>

      <Dialog open={dialog !== undefined} onClose={() => setDialog(undefined)} title={dialog ? TITLES[dialog] : ''}>
        {dialog !== undefined && (
          <DecisionForm
            kind={dialog}
            booking={b}
            slug={slug}
            error={decision.isError ? decision.error.message : undefined}
            pending={pending}
            onSubmit={run}
            onCancel={() => {
              decision.reset();
              setDialog(undefined);
            }}
          />
        )}
      </Dialog>
    </section>
  );
}

const TITLES: Record<Kind, string> = {
  decline: 'Decline the request',
  cancel: 'Cancel the booking',
  propose: 'Propose a new time',
  reschedule: 'Move the booking',
};

const SUBMIT: Record<Kind, string> = {
  decline: 'Confirm decline',
  cancel: 'Confirm cancellation',
  propose: 'Send proposal',
  reschedule: 'Move booking',
};

function DecisionForm(props: {
  kind: Kind;
  booking: BusinessBooking;
  slug: string;
  error: string | undefined;
  pending: boolean;
  onSubmit: (d: Decision) => void;
  onCancel: () => void;
}) {
  const { kind, booking, slug, error, pending, onSubmit, onCancel } = props;
  const id = useId();
  const withTime = kind === 'propose' || kind === 'reschedule';
  const staff = useStaff(slug, withTime ? booking.locationSnapshot.locationSlug : undefined);
  const slot = slotOf(booking);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (n: string) => String(f.get(n) ?? '').trim();
    if (kind === 'decline' || kind === 'cancel') {
      const reason = text('reason');
      onSubmit({ action: kind, ...(reason ? { reason } : {}) });
    } else {
      const staffId = text('staffId');
      onSubmit({ action: kind, date: text('date'), startTime: text('time'), ...(staffId ? { staffId } : {}) });
    }
  };
  const performers = (staff.data ?? []).filter((s) => s.active && s.serviceIds.includes(booking.serviceId));
  return (
    <form onSubmit={submit} className="form">
      {withTime ? (
        <>
          <label htmlFor={`${id}-date`}>Date</label>
          <input id={`${id}-date`} name="date" type="date" required defaultValue={slot?.date} />
          <label htmlFor={`${id}-time`}>Time</label>
          <input id={`${id}-time`} name="time" type="time" step={300} required defaultValue={slot?.startTime} />
          <label htmlFor={`${id}-staff`}>Staff</label>
          <select id={`${id}-staff`} name="staffId" defaultValue={booking.staffId ?? ''}>
            {performers.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </>
      ) : (
        <>
          <label htmlFor={`${id}-reason`}>Reason (optional)</label>
          <textarea id={`${id}-reason`} name="reason" maxLength={500} rows={3} />
        </>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" disabled={pending}>
          {SUBMIT[kind]}
        </button>
        <button type="button" onClick={onCancel}>
          Back
        </button>
      </div>
    </form>
  );
}
