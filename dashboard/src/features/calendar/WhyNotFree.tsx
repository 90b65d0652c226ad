import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Dialog } from '../../components/Dialog.tsx';
import { Field } from '../../components/Field.tsx';
import { RecordForm, text } from '../../components/RecordForm.tsx';
import { api, unwrap } from '../../lib/api.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { useServices, useStaff } from '../catalogue/queries.ts';

interface Props {
  slug: string;
  locationSlug: string;
  date: string;
  /** the location's grid, named in the words for `not_on_interval` */
  slotIntervalMinutes: number;
  /** from New booking: its service, staff member, date and time, asked about */
  preset?: { serviceId: string; staffId: string; date: string; time: string } | undefined;
}

type Explanation = Awaited<ReturnType<typeof explain>>;
type Reason = Explanation['staff'][number]['reasons'][number];

async function explain(slug: string, body: { locationSlug: string; serviceId: string; staffId?: string; date: string; startTime: string }) {
  return unwrap(await api.POST('/admin/v1/businesses/{slug}/availability/explain', { params: { path: { slug } }, body })).explanation;
}

/** Each reason in the words a receptionist would use (salon-scheduling.md, "Explain"). */
function words(reason: Reason, interval: number, resources: ReadonlyArray<{ name: string }> = []): string {
  switch (reason) {
    case 'in_the_past':
      return 'This time has already passed.';
    case 'min_notice':
      return 'Too soon: online bookings need more notice at this location.';
    case 'beyond_horizon':
      return 'Too far ahead: the location does not take bookings that far in advance.';
    case 'nonexistent_local_time':
      return 'This time does not exist that day: the clocks go forward.';
    case 'not_on_interval':
      return `Not a start time guests are offered: times go every ${interval} minutes from the start of the working hours.`;
    case 'outside_working_hours':
      return 'Outside the working hours, or the service would not end before they do.';
    case 'time_off':
      return 'Time off.';
    case 'booked':
      return 'Another booking is in the way.';
    case 'held':
      return 'A guest is holding this time while they book.';
    case 'resource_unavailable':
      return resources.length > 0
        ? `No ${resources.map((r) => r.name).join(' or ')} is free then: every one is taken.`
        : 'Every unit of a resource the service needs is taken then.';
    case 'quota_exceeded':
      return 'The business has no bookings left this month on its plan.';
    case 'location_booking_disabled':
      return 'This location takes no bookings.';
    case 'service_not_bookable_online':
      return 'This service cannot be booked online.';
    case 'staff_does_not_offer_service':
      return 'Does not do this service.';
  }
}

/**
 * `Why not free?`: for a service, a date and a time (and a staff member, or everyone), whether the
 * time is free and every reason it is not, in words, with the bookings in the way linked, in the
 * dashboard's one modal `Dialog`.
 */
export function WhyNotFree(props: Props & { open: boolean; onOpen: () => void; onClose: () => void }) {
  const { open, onOpen, onClose, ...rest } = props;
  return (
    <>
      <button type="button" onClick={onOpen}>
        Why not free?
      </button>
      <Dialog open={open} onClose={onClose} title="Why not free?">
        <WhyNotFreeForm {...rest} onClose={onClose} />
      </Dialog>
    </>
  );
}

function WhyNotFreeForm(props: Props & { onClose: () => void }) {
  const { slug, locationSlug, date, slotIntervalMinutes, preset, onClose } = props;
  const services = useServices(slug, locationSlug);
  const staff = useStaff(slug, locationSlug);
  const standard = (services.data ?? []).filter((s) => s.active && s.bookingMode === 'standard');
  const ask = useMutation({
    meta: { silent: true },
    mutationFn: (body: { serviceId: string; staffId?: string; date: string; startTime: string }) =>
      explain(slug, { locationSlug, ...body }),
  });
  const errors = formErrors(ask.error, ['serviceId', 'staffId', 'date', 'startTime']);
  const submit = (f: FormData) => {
    const staffId = text(f, 'staffId');
    ask.mutate({ serviceId: text(f, 'serviceId'), date: text(f, 'date'), startTime: text(f, 'time'), ...(staffId ? { staffId } : {}) });
  };
  const answer = ask.data;
  return (
    <RecordForm
      noValidate={false}
      errors={errors}
      error={ask.error}
      pending={ask.isPending}
      submitDisabled={standard.length === 0}
      submitLabel="Explain"
      cancelLabel="Close"
      onSubmit={submit}
      onCancel={onClose}
    >
      <Field label="Service" error={errors.fields.serviceId}>
        <select name="serviceId" required defaultValue={preset?.serviceId}>
          {standard.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({s.durationMinutes} min)
            </option>
          ))}
        </select>
      </Field>
      <Field label="Staff" error={errors.fields.staffId}>
        <select name="staffId" defaultValue={preset?.staffId ?? ''}>
          <option value="">Everyone who does the service</option>
          {(staff.data ?? [])
            .filter((s) => s.active)
            .map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
        </select>
      </Field>
      <Field label="Date" error={errors.fields.date}>
        <input name="date" type="date" required defaultValue={preset?.date ?? date} />
      </Field>
      <Field label="Time" error={errors.fields.startTime}>
        <input name="time" type="time" required step={300} defaultValue={preset?.time ?? '10:00'} />
      </Field>
      {answer && (
        <section className="explanation" aria-live="polite" aria-label="Answer">
          <p>
            <strong>
              {answer.date} {answer.startTime} ({answer.timezone}): {answer.bookable ? 'free' : 'not free'}
            </strong>
          </p>
          <ul>
            {answer.staff.map((s) => (
              <li key={s.staffId}>
                <strong>{s.staffName}</strong>:{' '}
                {s.bookable ? 'free.' : s.reasons.map((r) => words(r, slotIntervalMinutes, s.resources)).join(' ')}
                {s.bookingIds.map((id) => (
                  <span key={id}>
                    {' '}
                    <Link to={`../bookings/${id}`} relative="path" onClick={onClose}>
                      Open the booking
                    </Link>
                  </span>
                ))}
              </li>
            ))}
          </ul>
        </section>
      )}
    </RecordForm>
  );
}
