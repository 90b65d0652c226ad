import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { api, type BusinessBooking, unwrap } from '../../lib/api.ts';
import { agendaKeys, bookingKeys } from '../../lib/query-keys.ts';
import '../../components/admin.css';
import { money, wallClock } from '../../lib/format.ts';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { depositWords } from './words.ts';

/** An instant as the location's wall clock, with the zone. */
function local(iso: string, timeZone: string): string {
  return `${wallClock(iso, timeZone)} (${timeZone})`;
}

/**
 * The deposit of a booking that has one (business-side.md): status, amount, due time and, while
 * pending, `Mark paid` / `Waive` (POST /admin/v1/bookings/{id}/deposit, every role). Renders
 * nothing for a booking without a deposit.
 */
export function DepositPanel({ booking }: { booking: BusinessBooking }) {
  const id = useId();
  const w = usePageWords(depositWords);
  const qc = useQueryClient();
  const record = useMutation({
    mutationFn: async (status: 'paid' | 'waived') =>
      unwrap(
        await api.POST('/admin/v1/bookings/{bookingId}/deposit', { params: { path: { bookingId: booking.bookingId } }, body: { status } }),
      ).booking,
    onSuccess: (b) => {
      qc.setQueryData(bookingKeys.detail(booking.bookingId), b);
      return qc.invalidateQueries({ queryKey: agendaKeys.all });
    },
  });
  const d = booking.deposit;
  if (!d) return null;
  const zone = booking.requestedSlot.timezone;
  const amount = d.amount === null ? w.noAmount : money(d.amount, d.currency);
  return (
    <section className="deposit" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{w.title}</h2>
      <dl className="facts">
        <dt>{w.status}</dt>
        <dd>{w.statuses[d.status]}</dd>
        <dt>{w.amount}</dt>
        <dd>{amount}</dd>
        <dt>{w.due}</dt>
        <dd>{local(d.dueAt, zone)}</dd>
        {d.recordedAt && (
          <>
            <dt>{w.recorded}</dt>
            <dd>{local(d.recordedAt, zone)}</dd>
          </>
        )}
      </dl>
      {d.status === 'pending' && (
        <div className="actions">
          <button type="button" disabled={record.isPending} onClick={() => record.mutate('paid')}>
            {w.markPaid}
          </button>
          <button type="button" disabled={record.isPending} onClick={() => record.mutate('waived')}>
            {w.waive}
          </button>
        </div>
      )}
      {record.isError && <p role="alert">{record.error.message}</p>}
    </section>
  );
}
