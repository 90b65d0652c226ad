import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Temporal } from 'temporal-polyfill';
import { api, type BusinessBooking, unwrap } from '../../lib/api.ts';
import { agendaKeys, bookingKeys } from '../../lib/query-keys.ts';
import '../../components/admin.css';
import { money } from '../../lib/format.ts';

const STATUS: Record<NonNullable<BusinessBooking['deposit']>['status'], string> = { pending: 'pending', paid: 'paid', waived: 'waived' };

/** An instant as the location's wall clock, with the zone. */
function local(iso: string, timeZone: string): string {
  return `${Temporal.Instant.from(iso).toZonedDateTimeISO(timeZone).toPlainDateTime().toString({ smallestUnit: 'minute' }).replace('T', ' ')} (${timeZone})`;
}

/**
 * The deposit of a booking that has one (business-side.md): status, amount, due time and, while
 * pending, `Mark paid` / `Waive` (POST /admin/v1/bookings/{id}/deposit, every role). Renders
 * nothing for a booking without a deposit.
 */
export function DepositPanel({ booking }: { booking: BusinessBooking }) {
  const id = useId();
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
  const amount = d.amount === null ? 'amount not set' : money(d.amount, d.currency);
  return (
    <section className="deposit" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Deposit</h2>
      <dl className="facts">
        <dt>Deposit status</dt>
        <dd>{STATUS[d.status]}</dd>
        <dt>Amount</dt>
        <dd>{amount}</dd>
        <dt>Due</dt>
        <dd>{local(d.dueAt, zone)}</dd>
        {d.recordedAt && (
          <>
            <dt>Recorded</dt>
            <dd>{local(d.recordedAt, zone)}</dd>
          </>
        )}
      </dl>
      {d.status === 'pending' && (
        <div className="actions">
          <button type="button" disabled={record.isPending} onClick={() => record.mutate('paid')}>
            Mark paid
          </button>
          <button type="button" disabled={record.isPending} onClick={() => record.mutate('waived')}>
            Waive
          </button>
        </div>
      )}
      {record.isError && <p role="alert">{record.error.message}</p>}
    </section>
  );
}
