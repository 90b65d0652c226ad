import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type BusinessBooking, unwrap } from '../../lib/api.ts';
import { agendaKeys } from '../../lib/query-keys.ts';
import { useServices, useStaff } from '../catalogue/queries.ts';
import { Field } from '../../components/Field.tsx';
import { RecordForm, text } from '../../components/RecordForm.tsx';
import { formErrors } from '../../lib/form-errors.ts';
import { StaffSelect } from '../catalogue/StaffSelect.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { useNextFreeTime } from './useNextFreeTime.ts';
import { currentMessages, useT } from '../../lib/i18n/index.ts';
import { GuestFields } from './GuestFields.tsx';

/** A visit has at most 4 services (salon-scheduling.md "Visits"). */
const MAX_PARTS = 4;

interface ManualBody {
  parts: Array<{ serviceId: string; staffId: string }>;
  date: string;
  startTime: string;
  guest: { name: string; phone: string; email?: string };
}

/** Where New booking opens: an empty time chosen in the week view (staff member, date, time). */
export interface BookingPreset {
  staffId: string;
  date: string;
  time: string;
}

interface Props {
  slug: string;
  locationSlug: string;
  timeZone: string;
  /** the calendar's date: the form's date, and where the next free time is looked for from */
  date: string;
  /** the location's grid: proposed times go every this many minutes */
  slotIntervalMinutes: number;
  /** called with the new booking once the API has it */
  onCreated: (booking: BusinessBooking) => void;
  /** `Why not free at this time?`: the form's service, staff, date and time explained instead */
  onWhyNotFree: (at: { serviceId: string; staffId: string; date: string; time: string }) => void;
}

/**
 * `New booking`: a manual booking (confirmed at once) through POST /businesses/{slug}/bookings.
 * An odd time (in the past, a day the staff member does not work, outside their hours, in their
 * time off) is checked first (POST …/bookings/check) and booked only after `Book anyway?`.
 * The shared modal Dialog (focus kept inside, Escape closes, focus back to the opener); the API's
 * message is shown in the form when it refuses (a clash, a closed hour), and nothing is created.
 * Opened by its button it proposes the chosen staff member's next free time; opened from an
 * empty time of the week view (`preset`) it is filled with that staff member, date and time.
 */
export function NewBooking(props: Props & { open: boolean; preset: BookingPreset | undefined; onOpen: () => void; onClose: () => void }) {
  const { open, preset, onOpen, onClose, onCreated, ...rest } = props;
  const t = useT();
  return (
    <>
      <button type="button" onClick={onOpen}>
        {t.newBooking.open}
      </button>
      <Dialog open={open} onClose={onClose} title={t.newBooking.title}>
        <NewBookingForm
          {...rest}
          preset={preset}
          onCancel={onClose}
          onCreated={(b) => {
            onClose();
            onCreated(b);
          }}
        />
      </Dialog>
    </>
  );
}

function NewBookingForm(props: Props & { preset: BookingPreset | undefined; onCancel: () => void }) {
  const { slug, locationSlug, timeZone, date, slotIntervalMinutes, preset, onCancel, onCreated, onWhyNotFree } = props;
  const services = useServices(slug, locationSlug);
  const staff = useStaff(slug, locationSlug);
  const qc = useQueryClient();
  const t = useT();
  const w = t.newBooking;
  const bookable = (services.data ?? []).filter((s) => s.active && s.bookingMode === 'standard');
  const performersOf = (serviceId: string) => (staff.data ?? []).filter((s) => s.active && s.serviceIds.includes(serviceId));
  // one entry per service of the visit (a single booking has one); each its own chosen service
  const [partServices, setPartServices] = useState<string[]>(['']);
  // from an empty time of a staff member's week: the first service that staff member does
  const firstService = bookable.find((s) => !preset || performersOf(s.id).some((p) => p.id === preset.staffId)) ?? bookable[0];
  const chosen = (i: number) => partServices[i] || (i === 0 ? firstService?.id : bookable[0]?.id) || '';
  const [staff0, setStaff0] = useState(preset?.staffId ?? '');
  const performers0 = performersOf(chosen(0));
  const chosenStaff0 = performers0.some((p) => p.id === staff0) ? staff0 : (performers0[0]?.id ?? '');
  const [when, setWhen] = useState({ date: preset?.date ?? date, time: preset?.time ?? '', dateTouched: false, timeTouched: !!preset });
  const proposal = useNextFreeTime({
    slug,
    locationSlug,
    timeZone,
    from: when.date,
    staffId: chosenStaff0,
    service: bookable.find((s) => s.id === chosen(0)),
    stepMinutes: slotIntervalMinutes,
  });
  // The proposal fills what the receptionist has not typed: the date only while it is still the calendar's.
  const proposed = !when.timeTouched && proposal && (!when.dateTouched || proposal.date === when.date) ? proposal : undefined;
  const shownDate = proposed?.date ?? when.date;
  const shownTime = proposed?.time ?? (when.time || '09:00');
  // one service: serviceId and staffId; several: the visit, booked back to back by the API
  const apiBody = (b: ManualBody) =>
    b.parts.length === 1
      ? { ...b.parts[0]!, date: b.date, startTime: b.startTime }
      : { visit: b.parts, date: b.date, startTime: b.startTime };

  const create = useMutation({
    meta: { done: () => currentMessages().newBooking.booked },
    mutationFn: async (body: ManualBody) =>
      unwrap(
        await api.POST('/admin/v1/businesses/{slug}/bookings', {
          params: { path: { slug } },
          body: { locationSlug, ...apiBody(body), guest: body.guest },
        }),
      ).booking,
    onSuccess: async (booking) => {
      await qc.invalidateQueries({ queryKey: agendaKeys.business(slug) });
      onCreated(booking);
    },
  });
  // An odd time (past, closed day, outside hours, time off) is asked about first: `Book anyway?`.
  const check = useMutation({
    meta: { silent: true },
    mutationFn: async (body: ManualBody) => {
      const r = unwrap(
        await api.POST('/admin/v1/businesses/{slug}/bookings/check', {
          params: { path: { slug } },
          body: { locationSlug, ...apiBody(body) },
        }),
      );
      return { body, warnings: r.warnings };
    },
    onSuccess: ({ body, warnings }) => {
      if (warnings.length === 0) create.mutate(body);
      else setAsking({ body, warnings });
    },
  });
  const [asking, setAsking] = useState<{ body: ManualBody; warnings: Array<{ code: string; message: string }> } | null>(null);

  const submit = (f: FormData) => {
    const email = text(f, 'email');
    check.mutate({
      parts: partServices.map((_, i) => ({ serviceId: text(f, fieldName('serviceId', i)), staffId: text(f, fieldName('staffId', i)) })),
      date: text(f, 'date'),
      startTime: text(f, 'time'),
      guest: { name: text(f, 'guestName'), phone: text(f, 'phone'), ...(email ? { email } : {}) },
    });
  };
  // A clash concerns the whole booking: the API's message under the form; a refused field
  // (a phone the API cannot call, a missing name) is said beside that field.
  const error = create.error ?? check.error;
  const errors = formErrors(error, BOOKING_FIELDS);
  const e = errors.fields;

  return (
    <>
      <RecordForm
        noValidate={false}
        errors={errors}
        error={error}
        pending={create.isPending || check.isPending}
        submitDisabled={bookable.length === 0}
        submitLabel={w.submit}
        cancelLabel={t.common.cancel}
        onSubmit={submit}
        onCancel={onCancel}
      >
        {partServices.map((_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a part is its place in the visit
          <div key={i} className="visit-part">
            <Field label={i === 0 ? w.service : w.serviceN(i + 1)} error={i === 0 ? (e.serviceId ?? e.visit) : undefined}>
              <select
                name={fieldName('serviceId', i)}
                required
                value={chosen(i)}
                onChange={(e) => setPartServices((p) => p.map((v, j) => (j === i ? e.target.value : v)))}
              >
                {bookable.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name} ({w.minutes(s.durationMinutes)})
                  </option>
                ))}
              </select>
            </Field>
            <div onChange={i === 0 ? (e) => e.target instanceof HTMLSelectElement && setStaff0(e.target.value) : undefined}>
              <StaffSelect
                key={`${chosen(i)}-${performersOf(chosen(i)).length}`}
                staff={performersOf(chosen(i))}
                required
                label={i === 0 ? w.staff : w.staffN(i + 1)}
                name={fieldName('staffId', i)}
                {...(i === 0 ? { defaultValue: chosenStaff0 } : {})}
                error={i === 0 ? e.staffId : undefined}
              />
            </div>
            {i > 0 && (
              <button type="button" onClick={() => setPartServices((p) => p.filter((_, j) => j !== i))}>
                {w.removeService(i + 1)}
              </button>
            )}
          </div>
        ))}
        {partServices.length < MAX_PARTS && bookable.length > 0 && (
          <button type="button" onClick={() => setPartServices((p) => [...p, ''])}>
            {w.addService}
          </button>
        )}
        {partServices.length > 1 && <p className="hint">{w.visitHint}</p>}
        <Field label={w.date} error={e.date}>
          <input
            name="date"
            type="date"
            required
            value={shownDate}
            onChange={(e) => setWhen((w) => ({ ...w, date: e.target.value, time: shownTime, dateTouched: true }))}
          />
        </Field>
        <Field label={w.time} error={e.startTime}>
          <input
            name="time"
            type="time"
            required
            step={300}
            value={shownTime}
            onChange={(e) => setWhen((w) => ({ ...w, date: shownDate, time: e.target.value, timeTouched: true }))}
          />
        </Field>
        <p className="hint" aria-live="polite">
          {proposed
            ? w.nextFreeOf(performers0.find((p) => p.id === chosenStaff0)?.name ?? w.theStaffMember)
            : !when.timeTouched && chosenStaff0 && proposal === undefined
              ? w.noFreeTime
              : ''}{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => onWhyNotFree({ serviceId: chosen(0), staffId: chosenStaff0, date: shownDate, time: shownTime })}
          >
            {w.whyNotFreeHere}
          </button>
        </p>
        <GuestFields slug={slug} errors={e} />
      </RecordForm>
      <ConfirmDialog
        open={asking !== null}
        title={w.askTitle}
        confirm={w.askConfirm}
        pending={create.isPending}
        onConfirm={() => {
          if (asking) create.mutate(asking.body);
          setAsking(null);
        }}
        onClose={() => setAsking(null)}
      >
        <ul className="warnings">
          {asking?.warnings.map((warning) => (
            <li key={warning.code}>{w.warnings[warning.code] ?? warning.message}</li>
          ))}
        </ul>
      </ConfirmDialog>
    </>
  );
}

/** What the API may name in a refusal, as the form's fields (the guest's are nested). */
const BOOKING_FIELDS = ['serviceId', 'staffId', 'visit', 'date', 'startTime', 'guest.name', 'guest.phone', 'guest.email'];

/** The form field of a part: `serviceId` for the first, `serviceId-2` for the second, … */
function fieldName(base: 'serviceId' | 'staffId', i: number): string {
  return i === 0 ? base : `${base}-${i + 1}`;
}
