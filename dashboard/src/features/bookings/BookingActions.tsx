import { useState } from 'react';
import { Temporal } from 'temporal-polyfill';
import { Dialog } from '../../components/Dialog.tsx';
import type { BusinessBooking } from '../../lib/api.ts';
import { useStaff } from '../catalogue/queries.ts';
import { slotOf } from '../../lib/slot.ts';
import { type Decision, useDecision } from '../../lib/booking-decisions.ts';
import { Field } from '../../components/Field.tsx';
import { RecordForm, text } from '../../components/RecordForm.tsx';
import { errorWords, formErrors } from '../../lib/form-errors.ts';
import { useT } from '../../lib/i18n/index.ts';
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
  const a = useT().actions;
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
            {a.accept}
          </button>
        )}
        {(s === 'requested' || s === 'rescheduleProposed') && may('decline') && (
          <button type="button" onClick={() => setDialog('decline')}>
            {a.decline}
          </button>
        )}
        {/* a confirmed appointment under way is moved, not proposed: the guest is in the chair */}
        {(s === 'requested' || (s === 'confirmed' && !started(b))) && may('propose') && (
          <button type="button" onClick={() => setDialog('propose')}>
            {a.propose}
          </button>
        )}
        {s === 'confirmed' && may('reschedule') && (
          <button type="button" onClick={() => setDialog('reschedule')}>
            {a.reschedule}
          </button>
        )}
        {(s === 'requested' || s === 'confirmed' || s === 'rescheduleProposed') && may('cancel') && (
          <button type="button" onClick={() => setDialog('cancel')}>
            {a.cancel}
          </button>
        )}
        {s === 'confirmed' && started(b) && may('complete') && (
          <>
            <button type="button" disabled={pending} onClick={() => run({ action: 'complete' })}>
              {a.complete}
            </button>
            <button type="button" disabled={pending} onClick={() => run({ action: 'noShow' })}>
              {a.noShow}
            </button>
          </>
        )}
      </div>
      {decision.isError && dialog === undefined && <p role="alert">{errorWords(decision.error)}</p>}

      <Dialog open={dialog !== undefined} onClose={() => setDialog(undefined)} title={dialog ? a.titles[dialog] : ''}>
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
  const t = useT();
  const a = t.actions;
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
      submitLabel={a.submits[kind]}
      onSubmit={submit}
      onCancel={onCancel}
      cancelLabel={t.common.back}
    >
      {withTime ? (
        <>
          <Field label={t.newBooking.date}>
            <input name="date" type="date" required defaultValue={slot?.date} />
          </Field>
          <Field label={t.newBooking.time}>
            <input name="time" type="time" step={300} required defaultValue={slot?.startTime} />
          </Field>
          <StaffSelect staff={performers} defaultValue={booking.staffId ?? ''} />
        </>
      ) : (
        <Field label={a.reasonOptional}>
          <textarea name="reason" maxLength={500} rows={3} />
        </Field>
      )}
    </RecordForm>
  );
}
