import { type FormEvent, useId, useState } from 'react';
import { Temporal } from 'temporal-polyfill';
import { Dialog } from '../../components/Dialog.tsx';
import type { BusinessBooking } from '../../lib/api.ts';
import { useStaff } from '../calendar/queries.ts';
import { slotOf } from './slot.ts';
import { type Decision, useDecision } from './queries.ts';

type Kind = 'decline' | 'cancel' | 'propose' | 'reschedule';
export type ActionName = 'accept' | Kind | 'complete' | 'noShow';

function started(b: BusinessBooking, now = Temporal.Now.instant()): boolean {
  const s = b.confirmedSlot;
  if (!s) return false;
  const at = Temporal.PlainDate.from(s.date).toZonedDateTime({ timeZone: s.timezone, plainTime: Temporal.PlainTime.from(s.startTime) });
  return Temporal.Instant.compare(at.toInstant(), now) <= 0;
}

/**
 * One button per transition the booking's status allows (business-side.md's names), the ones that
 * need more (a reason, a new time) through a dialog; the API's refusal is shown where it was asked.
 * `only` limits the buttons (the Requests inbox offers Accept, Decline and Propose new time).
 */
export function BookingActions({ booking: b, slug, only }: { booking: BusinessBooking; slug: string; only?: readonly ActionName[] }) {
  const decision = useDecision(b.bookingId);
  const [dialog, setDialog] = useState<Kind | undefined>();
  const run = (d: Decision) => decision.mutate(d, { onSuccess: () => setDialog(undefined) });
  const pending = decision.isPending;
  const s = b.status;
  const may = (a: ActionName) => only === undefined || only.includes(a);
  return (
    <>
      <div className="actions">
        {s === 'requested' && may('accept') && (
          <button type="button" disabled={pending} onClick={() => run({ action: 'accept' })}>
            Accept
          </button>
        )}
        {(s === 'requested' || s === 'rescheduleProposed') && may('decline') && (
          <button type="button" onClick={() => setDialog('decline')}>
            Decline
          </button>
        )}
        {(s === 'requested' || s === 'confirmed') && may('propose') && (
          <button type="button" onClick={() => setDialog('propose')}>
            Propose new time
          </button>
        )}
        {s === 'confirmed' && may('reschedule') && (
          <button type="button" onClick={() => setDialog('reschedule')}>
            Reschedule
          </button>
        )}
        {(s === 'requested' || s === 'confirmed' || s === 'rescheduleProposed') && may('cancel') && (
          <button type="button" onClick={() => setDialog('cancel')}>
            Cancel booking
          </button>
        )}
        {s === 'confirmed' && started(b) && may('complete') && (
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
    </>
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
