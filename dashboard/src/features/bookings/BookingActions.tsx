import { useState } from 'react';
import { Temporal } from 'temporal-polyfill';
import { Dialog } from '../../components/Dialog.tsx';
import type { BusinessBooking } from '../../lib/api.ts';
import { useStaff } from '../catalogue/queries.ts';
import { slotOf } from '../../lib/slot.ts';
import { type Decision, useDecision } from '../../lib/booking-decisions.ts';
import { Field } from '../../components/Field.tsx';
import { RecordForm, text } from '../../components/RecordForm.tsx';
import { formErrors } from '../../lib/form-errors.ts';
import { StaffSelect } from '../catalogue/StaffSelect.tsx';

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
        {/* a confirmed appointment under way is moved, not proposed: the guest is in the chair */}
        {(s === 'requested' || (s === 'confirmed' && !started(b))) && may('propose') && (
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
            error={decision.error}
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
  error: unknown;
  pending: boolean;
  onSubmit: (d: Decision) => void;
  onCancel: () => void;
}) {
  const { kind, booking, slug, error, pending, onSubmit, onCancel } = props;
  const errors = formErrors(error, []);
  const withTime = kind === 'propose' || kind === 'reschedule';
  const staff = useStaff(slug, withTime ? booking.locationSnapshot.locationSlug : undefined);
  const slot = slotOf(booking);
  const submit = (f: FormData) => {
    if (kind === 'decline' || kind === 'cancel') {
      const reason = text(f, 'reason');
      onSubmit({ action: kind, ...(reason ? { reason } : {}) });
    } else {
      const staffId = text(f, 'staffId');
      onSubmit({ action: kind, date: text(f, 'date'), startTime: text(f, 'time'), ...(staffId ? { staffId } : {}) });
    }
  };
  const performers = (staff.data ?? []).filter((s) => s.active && s.serviceIds.includes(booking.serviceId));
  return (
    <RecordForm
      noValidate={false}
      errors={errors}
      error={error}
      pending={pending}
      submitLabel={SUBMIT[kind]}
      onSubmit={submit}
      onCancel={onCancel}
      cancelLabel="Back"
    >
      {withTime ? (
        <>
          <Field label="Date">
            <input name="date" type="date" required defaultValue={slot?.date} />
          </Field>
          <Field label="Time">
            <input name="time" type="time" step={300} required defaultValue={slot?.startTime} />
          </Field>
          <StaffSelect staff={performers} defaultValue={booking.staffId ?? ''} />
        </>
      ) : (
        <Field label="Reason (optional)">
          <textarea name="reason" maxLength={500} rows={3} />
        </Field>
      )}
    </RecordForm>
  );
}
