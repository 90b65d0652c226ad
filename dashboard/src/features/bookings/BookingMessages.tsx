import { useId } from 'react';
import { wallClock } from '../../lib/format.ts';
import { useT } from '../../lib/i18n/index.ts';
import { type Notification, useBookingMessages, useResend } from './messages.ts';
import './messages.css';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { bookingMessagesWords } from './words.ts';

/**
 * The messages of one booking (guest-side.md "Notifications"): what each said, how and to whom
 * (masked, as the API gives it), whether it went out, and `Resend` on each, for a guest who says
 * nothing arrived. Every role may: the front desk reads one booking's messages at a time.
 */
export function BookingMessages({ slug, bookingId, timeZone }: { slug: string; bookingId: string; timeZone: string }) {
  const id = useId();
  const messages = useBookingMessages(slug, bookingId);
  const resend = useResend(slug, bookingId);
  const w = usePageWords(bookingMessagesWords);
  const rows = messages.data?.pages.flatMap((p) => p.notifications) ?? [];

  return (
    <section aria-labelledby={`${id}-title`} className="booking-messages">
      <h2 id={`${id}-title`}>{w.title}</h2>
      {messages.isPending && <p className="loading">{w.loading}</p>}
      {messages.isError && <p role="alert">{messages.error.message}</p>}
      {messages.isSuccess && rows.length === 0 && <p>{w.none}</p>}
      <p role="status" className="resend-status">
        {resend.isSuccess ? w.willResend(w.kinds[resend.data.kind], resend.data.to) : ''}
      </p>
      {resend.isError && (
        <p role="alert" className="field-error">
          {w.failed}
          {resend.error.message}
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
          {w.older}
        </button>
      )}
    </section>
  );
}

function MessageItem(props: { message: Notification; timeZone: string; pending: boolean; onResend: () => void }) {
  const { message: m, timeZone } = props;
  const titleId = useId();
  const t = useT();
  const w = usePageWords(bookingMessagesWords);
  const kind = w.kinds[m.kind];
  const channel = w.channels[m.channel];
  return (
    <li aria-labelledby={titleId}>
      <h3 id={titleId}>
        {kind} <span className="muted">· {channel}</span>
      </h3>
      <dl className="message-facts">
        <dt>{w.to}</dt>
        <dd>{m.to}</dd>
        <dt>{t.common.status}</dt>
        <dd className={`message-status message-${m.status}`}>{w.statuses[m.status]}</dd>
        <dt>{w.attempts}</dt>
        <dd>{m.attempts}</dd>
        {m.lastError && (
          <>
            <dt>{w.lastError}</dt>
            <dd className="message-error">{m.lastError}</dd>
          </>
        )}
        <dt>{m.status === 'pending' ? w.due : w.planned}</dt>
        <dd>
          <time dateTime={m.scheduledAt}>{wallClock(m.scheduledAt, timeZone)}</time>
        </dd>
        {m.sentAt && (
          <>
            <dt>{w.sent}</dt>
            <dd>
              <time dateTime={m.sentAt}>{wallClock(m.sentAt, timeZone)}</time>
            </dd>
          </>
        )}
      </dl>
      <button type="button" onClick={props.onResend} disabled={props.pending} aria-label={w.resendLabel(kind, channel)}>
        {w.resend}
      </button>
    </li>
  );
}
