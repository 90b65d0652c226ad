import { useId } from 'react';
import { Temporal } from 'temporal-polyfill';
import { CHANNEL_NAMES, KIND_NAMES, MESSAGE_STATUS_NAMES, type Notification, useBookingMessages, useResend } from './messages.ts';
import './messages.css';

/** An instant as the location's wall clock, as the rest of the booking shows its times. */
function localTime(iso: string, timeZone: string): string {
  return Temporal.Instant.from(iso).toZonedDateTimeISO(timeZone).toPlainDateTime().toString({ smallestUnit: 'minute' }).replace('T', ' ');
}

/**
 * The messages of one booking (guest-side.md "Notifications"): what each said, how and to whom
 * (masked, as the API gives it), whether it went out, and `Resend` on each, for a guest who says
 * nothing arrived. Every role may: the front desk reads one booking's messages at a time.
 */
export function BookingMessages({ slug, bookingId, timeZone }: { slug: string; bookingId: string; timeZone: string }) {
  const id = useId();
  const messages = useBookingMessages(slug, bookingId);
  const resend = useResend(slug, bookingId);
  const rows = messages.data?.pages.flatMap((p) => p.notifications) ?? [];

  return (
    <section aria-labelledby={`${id}-title`} className="booking-messages">
      <h2 id={`${id}-title`}>Messages</h2>
      {messages.isPending && <p className="loading">Loading the messages…</p>}
      {messages.isError && <p role="alert">{messages.error.message}</p>}
      {messages.isSuccess && rows.length === 0 && <p>No message has been sent about this booking.</p>}
      <p role="status" className="resend-status">
        {resend.isSuccess ? `${KIND_NAMES[resend.data.kind]} will be sent again to ${resend.data.to}.` : ''}
      </p>
      {resend.isError && (
        <p role="alert" className="field-error">
          Could not send it again: {resend.error.message}
        </p>
      )}
      {rows.length > 0 && (
        <ul className="message-list">
          {rows.map((m) => (
            <MessageItem
              key={m.id}
              message={m}
              timeZone={timeZone}
              pending={resend.isPending && resend.variables === m.id}
              onResend={() => resend.mutate(m.id)}
            />
          ))}
        </ul>
      )}
      {messages.hasNextPage && (
        <button type="button" onClick={() => void messages.fetchNextPage()} disabled={messages.isFetchingNextPage}>
          Show older messages
        </button>
      )}
    </section>
  );
}

function MessageItem(props: { message: Notification; timeZone: string; pending: boolean; onResend: () => void }) {
  const { message: m, timeZone } = props;
  const titleId = useId();
  const kind = KIND_NAMES[m.kind];
  return (
    <li aria-labelledby={titleId}>
      <h3 id={titleId}>
        {kind} <span className="muted">· {CHANNEL_NAMES[m.channel]}</span>
      </h3>
      <dl className="message-facts">
        <dt>To</dt>
        <dd>{m.to}</dd>
        <dt>Status</dt>
        <dd className={`message-status message-${m.status}`}>{MESSAGE_STATUS_NAMES[m.status]}</dd>
        <dt>Attempts</dt>
        <dd>{m.attempts}</dd>
        {m.lastError && (
          <>
            <dt>Last error</dt>
            <dd className="message-error">{m.lastError}</dd>
          </>
        )}
        <dt>{m.status === 'pending' ? 'Due' : 'Planned for'}</dt>
        <dd>
          <time dateTime={m.scheduledAt}>{localTime(m.scheduledAt, timeZone)}</time>
        </dd>
        {m.sentAt && (
          <>
            <dt>Sent</dt>
            <dd>
              <time dateTime={m.sentAt}>{localTime(m.sentAt, timeZone)}</time>
            </dd>
          </>
        )}
      </dl>
      <button type="button" onClick={props.onResend} disabled={props.pending} aria-label={`Resend ${kind} by ${CHANNEL_NAMES[m.channel]}`}>
        Resend
      </button>
    </li>
  );
}
