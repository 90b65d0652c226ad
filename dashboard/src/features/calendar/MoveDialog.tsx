import { Dialog } from '../../components/Dialog.tsx';
import { Field } from '../../components/Field.tsx';
import { RecordForm, text } from '../../components/RecordForm.tsx';
import type { BusinessBooking } from '../../lib/api.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { useT } from '../../lib/i18n/index.ts';
import { StaffSelect } from '../catalogue/StaffSelect.tsx';
import { useStaff } from '../catalogue/queries.ts';
import { useDecision } from '../../lib/booking-decisions.ts';
import type { MoveTo } from './queries.ts';

/**
 * The question after a drop or a keyboard move: the booking detail's `Reschedule` dialog (its
 * title, fields and `Move booking`), filled with where the booking was put, so the receptionist
 * sees the new time and may still correct it; the API's refusal (a clash) stays in the form.
 */
export function MoveDialog(props: { slug: string; move: { booking: BusinessBooking; to: MoveTo } | null; onClose: () => void }) {
  const c = useT().calendar;
  return (
    <Dialog open={props.move !== null} onClose={props.onClose} title={c.moveTitle}>
      {props.move && <MoveForm key={props.move.booking.bookingId} slug={props.slug} {...props.move} onClose={props.onClose} />}
    </Dialog>
  );
}

function MoveForm(props: { slug: string; booking: BusinessBooking; to: MoveTo; onClose: () => void }) {
  const { slug, booking, to, onClose } = props;
  const t = useT();
  const c = t.calendar;
  const move = useDecision(booking.bookingId);
  const staff = useStaff(slug, booking.locationSnapshot.locationSlug);
  const performers = (staff.data ?? []).filter((s) => s.active && s.serviceIds.includes(booking.serviceId));
  const submit = (f: FormData) => {
    const staffId = text(f, 'staffId');
    move.mutate(
      { action: 'reschedule', date: text(f, 'date'), startTime: text(f, 'time'), ...(staffId ? { staffId } : {}) },
      { onSuccess: onClose },
    );
  };
  return (
    <RecordForm
      noValidate={false}
      errors={formErrors(move.error, [])}
      error={move.error}
      pending={move.isPending}
      submitLabel={c.moveSubmit}
      onSubmit={submit}
      onCancel={onClose}
      cancelLabel={t.common.back}
    >
      <p>
        {booking.guest.name}, {booking.serviceName}
      </p>
      <Field label={c.date}>
        <input name="date" type="date" required defaultValue={to.date} />
      </Field>
      <Field label={c.time}>
        <input name="time" type="time" step={300} required defaultValue={to.startTime} />
      </Field>
      {to.staffId && staff.data && !performers.some((p) => p.id === to.staffId) && (
        <p className="error">{c.doesNotDo(staff.data.find((p) => p.id === to.staffId)?.name ?? c.thatStaffMember, booking.serviceName)}</p>
      )}
      {/* the list is read after the dialog opens: keyed so that the dropped-on staff member is chosen once it is there */}
      <StaffSelect key={performers.length} staff={performers} defaultValue={to.staffId ?? booking.staffId ?? ''} />
    </RecordForm>
  );
}
