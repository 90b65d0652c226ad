import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { api, type BusinessBooking, unwrap } from '../../lib/api.ts';
import { useServices, useStaff } from './queries.ts';

interface Props {
  slug: string;
  locationSlug: string;
  date: string;
  /** called with the new booking once the API has it */
  onCreated: (booking: BusinessBooking) => void;
}

/**
 * `New booking`: a manual booking (confirmed at once) through POST /businesses/{slug}/bookings.
 * A native modal <dialog> (focus kept inside, Escape closes, focus back to the opener); the API's
 * message is shown in the form when it refuses (a clash, a closed hour), and nothing is created.
 */
export function NewBooking({ slug, locationSlug, date, onCreated }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const titleId = useId();

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);

  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        New booking
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} onClose={() => setOpen(false)} className="dialog">
        {open && (
          <NewBookingForm
            titleId={titleId}
            slug={slug}
            locationSlug={locationSlug}
            date={date}
            onCancel={() => setOpen(false)}
            onCreated={(b) => {
              setOpen(false);
              onCreated(b);
            }}
          />
        )}
      </dialog>
    </>
  );
}

function NewBookingForm(props: Props & { titleId: string; onCancel: () => void }) {
  const { slug, locationSlug, date, titleId, onCancel, onCreated } = props;
  const services = useServices(slug, locationSlug);
  const staff = useStaff(slug, locationSlug);
  const qc = useQueryClient();
  const id = useId();
  const bookable = (services.data ?? []).filter((s) => s.active && s.bookingMode === 'standard');
  const [serviceId, setServiceId] = useState<string>('');
  const chosenService = serviceId || bookable[0]?.id || '';
  const performers = (staff.data ?? []).filter((s) => s.active && s.serviceIds.includes(chosenService));

  const create = useMutation({
    mutationFn: async (body: {
      serviceId: string;
      staffId: string;
      date: string;
      startTime: string;
      guest: { name: string; phone: string; email?: string };
    }) =>
      unwrap(await api.POST('/admin/v1/businesses/{slug}/bookings', { params: { path: { slug } }, body: { locationSlug, ...body } }))
        .booking,
    onSuccess: async (booking) => {
      await qc.invalidateQueries({ queryKey: ['agenda', slug] });
      onCreated(booking);
    },
  });

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (name: string) => String(f.get(name) ?? '').trim();
    const email = text('email');
    create.mutate({
      serviceId: text('serviceId'),
      staffId: text('staffId'),
      date: text('date'),
      startTime: text('time'),
      guest: { name: text('guestName'), phone: text('phone'), ...(email ? { email } : {}) },
    });
  };

  const field = (name: string) => `${id}-${name}`;
  const errorId = `${id}-error`;
  return (
    <form onSubmit={submit} className="form" aria-describedby={create.isError ? errorId : undefined}>
      <h2 id={titleId}>New booking</h2>
      <label htmlFor={field('service')}>Service</label>
      <select id={field('service')} name="serviceId" required value={chosenService} onChange={(e) => setServiceId(e.target.value)}>
        {bookable.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name} ({s.durationMinutes} min)
          </option>
        ))}
      </select>
      <label htmlFor={field('staff')}>Staff</label>
      <select id={field('staff')} name="staffId" required>
        {performers.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
      <label htmlFor={field('date')}>Date</label>
      <input id={field('date')} name="date" type="date" required defaultValue={date} />
      <label htmlFor={field('time')}>Time</label>
      <input id={field('time')} name="time" type="time" required step={300} defaultValue="09:00" />
      <label htmlFor={field('guest')}>Guest name</label>
      <input id={field('guest')} name="guestName" required maxLength={100} autoComplete="off" />
      <label htmlFor={field('phone')}>Phone</label>
      <input id={field('phone')} name="phone" type="tel" required maxLength={40} autoComplete="off" placeholder="+36 30 123 4567" />
      <label htmlFor={field('email')}>Email</label>
      <input id={field('email')} name="email" type="email" autoComplete="off" />
      {create.isError && (
        <p id={errorId} role="alert" className="error">
          {create.error.message}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" disabled={create.isPending || bookable.length === 0}>
          Create booking
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
