import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Dialog } from '../../components/Dialog.tsx';
import { Field } from '../../components/Field.tsx';
import { RecordForm, text } from '../../components/RecordForm.tsx';
import { api, unwrap } from '../../lib/api.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { type Messages, useT } from '../../lib/i18n/index.ts';
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
function words(
  w: Messages['calendar']['reasons'],
  reason: Reason,
  interval: number,
  resources: ReadonlyArray<{ name: string }> = [],
): string {
  switch (reason) {
    case 'not_on_interval':
      return w.not_on_interval(interval);
    case 'resource_unavailable':
      return resources.length > 0 ? w.resourceTaken(resources.map((r) => r.name)) : w.resource_unavailable;
    default:
      return w[reason];
  }
}

/**
 * `Why not free?`: for a service, a date and a time (and a staff member, or everyone), whether the
 * time is free and every reason it is not, in words, with the bookings in the way linked, in the
 * dashboard's one modal `Dialog`.
 */
export function WhyNotFree(props: Props & { open: boolean; onOpen: () => void; onClose: () => void }) {
  const { open, onOpen, onClose, ...rest } = props;
  const c = useT().calendar;
  return (
    <>
      <button type="button" onClick={onOpen}>
        {c.whyNotFree}
      </button>
      <Dialog open={open} onClose={onClose} title={c.whyNotFree}>
        <WhyNotFreeForm {...rest} onClose={onClose} />
      </Dialog>
    </>
  );
}

function WhyNotFreeForm(props: Props & { onClose: () => void }) {
  const { slug, locationSlug, date, slotIntervalMinutes, preset, onClose } = props;
  const c = useT().calendar;
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
      submitLabel={c.explain}
      cancelLabel={c.close}
      onSubmit={submit}
      onCancel={onClose}
    >
      <Field label={c.service} error={errors.fields.serviceId}>
        <select name="serviceId" required defaultValue={preset?.serviceId}>
          {standard.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({c.minutes(s.durationMinutes)})
            </option>
          ))}
        </select>
      </Field>
      <Field label={c.staff} error={errors.fields.staffId}>
        <select name="staffId" defaultValue={preset?.staffId ?? ''}>
          <option value="">{c.everyone}</option>
          {(staff.data ?? [])
            .filter((s) => s.active)
            .map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
        </select>
      </Field>
      <Field label={c.date} error={errors.fields.date}>
        <input name="date" type="date" required defaultValue={preset?.date ?? date} />
      </Field>
      <Field label={c.time} error={errors.fields.startTime}>
        <input name="time" type="time" required step={300} defaultValue={preset?.time ?? '10:00'} />
      </Field>
      {answer && (
        <section className="explanation" aria-live="polite" aria-label={c.answer}>
          <p>
            <strong>
              {answer.date} {answer.startTime} ({answer.timezone}): {answer.bookable ? c.free : c.notFree}
            </strong>
          </p>
          <ul>
            {answer.staff.map((s) => (
              <li key={s.staffId}>
                <strong>{s.staffName}</strong>:{' '}
                {s.bookable ? c.freeDot : s.reasons.map((r) => words(c.reasons, r, slotIntervalMinutes, s.resources)).join(' ')}
                {s.bookingIds.map((id) => (
                  <span key={id}>
                    {' '}
                    <Link to={`../bookings/${id}`} relative="path" onClick={onClose}>
                      {c.openBooking}
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
