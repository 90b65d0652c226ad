import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { Dialog } from '../../components/Dialog.tsx';
import { api, type Location, unwrap } from '../../lib/api.ts';
import { useLocations } from '../calendar/queries.ts';
import { checked, FormAlert, formErrors, int, Tag, text, useCanEdit, useFields, useFocusFirstInvalid } from '../services/forms.tsx';

/** Every location of the business, booking-disabled ones included and marked. */
export function LocationsPage() {
  const { slug = '' } = useParams();
  const canEdit = useCanEdit(slug);
  const locations = useLocations(slug);
  const [editing, setEditing] = useState<Location | 'new' | null>(null);

  useEffect(() => {
    document.title = 'Locations · Bookings dashboard';
  }, []);

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="catalog-bar">
        <h1 id="page-title">Locations</h1>
        {canEdit && (
          <button type="button" onClick={() => setEditing('new')}>
            New location
          </button>
        )}
      </div>
      {locations.isPending && <p className="loading">Loading locations…</p>}
      {locations.isError && <p role="alert">{locations.error.message}</p>}
      {locations.data && locations.data.length === 0 && <p>This business has no location yet.</p>}
      {locations.data && locations.data.length > 0 && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Slug</th>
              <th scope="col">Time zone</th>
              <th scope="col">Address</th>
              <th scope="col">Booking rules</th>
              <th scope="col">State</th>
              {canEdit && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {locations.data.map((l) => (
              <tr key={l.id} className={l.bookingEnabled ? undefined : 'row-inactive'}>
                <th scope="row">
                  {l.name}
                  {l.publicLocationName !== l.name && <div>Shown to guests as {l.publicLocationName}</div>}
                </th>
                <td>{l.slug}</td>
                <td>{l.timezone}</td>
                <td>
                  {l.address.street}, {l.address.zip} {l.address.city}
                </td>
                <td>
                  every {l.slotIntervalMinutes} min, {l.minNoticeMinutes} min notice, {l.horizonDays} days ahead
                </td>
                <td>{l.bookingEnabled ? 'Booking enabled' : <Tag warn>Booking disabled</Tag>}</td>
                {canEdit && (
                  <td>
                    <button type="button" onClick={() => setEditing(l)} aria-label={`Edit ${l.name}`}>
                      Edit
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Dialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' || editing === null ? 'New location' : `Edit ${editing.name}`}
      >
        {editing !== null && (
          <LocationForm slug={slug} location={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />
        )}
      </Dialog>
    </section>
  );
}

const LOCATION_FIELDS = [
  'slug',
  'name',
  'publicLocationName',
  'timezone',
  'address.street',
  'address.city',
  'address.zip',
  'address',
  'bookingEnabled',
  'slotIntervalMinutes',
  'minNoticeMinutes',
  'horizonDays',
  'paymentInstructions',
] as const;

/** The zones this browser knows, offered as suggestions (the API decides). */
const ZONES: readonly string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  } catch {
    return [];
  }
})();

function LocationForm(props: { slug: string; location: Location | undefined; onDone: () => void }) {
  const { slug, location, onDone } = props;
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: async (body: LocationBody) => {
      if (location) {
        return unwrap(
          await api.PATCH('/admin/v1/businesses/{slug}/locations/{locationSlug}', {
            params: { path: { slug, locationSlug: location.slug } },
            body: { ...body, paymentInstructions: body.paymentInstructions || null },
          }),
        ).location;
      }
      const { paymentInstructions, ...rest } = body;
      return unwrap(
        await api.POST('/admin/v1/businesses/{slug}/locations', {
          params: { path: { slug } },
          body: { ...rest, ...(paymentInstructions ? { paymentInstructions } : {}) },
        }),
      ).location;
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['locations', slug] });
      onDone();
    },
  });
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, save.error);
  const errors = formErrors(save.error, LOCATION_FIELDS);
  const f = useFields(errors);
  const zonesId = `${f.id('timezone')}-list`;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const d = new FormData(e.currentTarget);
    save.mutate({
      slug: text(d, 'slug'),
      name: text(d, 'name'),
      publicLocationName: text(d, 'publicLocationName') || text(d, 'name'),
      timezone: text(d, 'timezone'),
      address: { street: text(d, 'street'), city: text(d, 'city'), zip: text(d, 'zip') },
      bookingEnabled: checked(d, 'bookingEnabled'),
      slotIntervalMinutes: int(d, 'slotIntervalMinutes'),
      minNoticeMinutes: int(d, 'minNoticeMinutes'),
      horizonDays: int(d, 'horizonDays'),
      paymentInstructions: text(d, 'paymentInstructions'),
    });
  };

  return (
    <form ref={formRef} className="form dialog-scroll catalog-form" onSubmit={submit} noValidate>
      <label htmlFor={f.id('name')}>Name</label>
      <input {...f.control('name')} name="name" required maxLength={200} defaultValue={location?.name ?? ''} />
      {f.error('name')}
      <label htmlFor={f.id('slug')}>Slug</label>
      <input
        {...f.control('slug', `${f.id('slug')}-hint`)}
        name="slug"
        required
        pattern="[a-z0-9-]+"
        maxLength={60}
        defaultValue={location?.slug ?? ''}
      />
      <span id={`${f.id('slug')}-hint`} className="hint">
        Lowercase letters, digits and dashes; part of the booking addresses.
      </span>
      {f.error('slug')}
      <label htmlFor={f.id('publicLocationName')}>Public name</label>
      <input
        {...f.control('publicLocationName')}
        name="publicLocationName"
        maxLength={200}
        defaultValue={location?.publicLocationName ?? ''}
      />
      {f.error('publicLocationName')}
      <label htmlFor={f.id('timezone')}>Time zone</label>
      <input
        {...f.control('timezone')}
        name="timezone"
        required
        list={zonesId}
        autoComplete="off"
        defaultValue={location?.timezone ?? ''}
        placeholder="Europe/Budapest"
      />
      <datalist id={zonesId}>
        {ZONES.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      {f.error('timezone')}
      <label htmlFor={f.id('address.street')}>Street</label>
      <input {...f.control('address.street')} name="street" required defaultValue={location?.address.street ?? ''} />
      {f.error('address.street')}
      <label htmlFor={f.id('address.city')}>City</label>
      <input {...f.control('address.city')} name="city" required defaultValue={location?.address.city ?? ''} />
      {f.error('address.city')}
      <label htmlFor={f.id('address.zip')}>ZIP code</label>
      <input {...f.control('address.zip')} name="zip" required defaultValue={location?.address.zip ?? ''} />
      {f.error('address.zip')}
      {f.error('address')}
      <label htmlFor={f.id('slotIntervalMinutes')}>Slot interval (minutes)</label>
      <input
        {...f.control('slotIntervalMinutes')}
        name="slotIntervalMinutes"
        type="number"
        min={1}
        step={1}
        required
        defaultValue={location?.slotIntervalMinutes ?? 15}
      />
      {f.error('slotIntervalMinutes')}
      <label htmlFor={f.id('minNoticeMinutes')}>Minimum notice (minutes)</label>
      <input
        {...f.control('minNoticeMinutes')}
        name="minNoticeMinutes"
        type="number"
        min={0}
        step={1}
        required
        defaultValue={location?.minNoticeMinutes ?? 60}
      />
      {f.error('minNoticeMinutes')}
      <label htmlFor={f.id('horizonDays')}>Booking horizon (days)</label>
      <input
        {...f.control('horizonDays')}
        name="horizonDays"
        type="number"
        min={1}
        step={1}
        required
        defaultValue={location?.horizonDays ?? 90}
      />
      {f.error('horizonDays')}
      <label htmlFor={f.id('paymentInstructions')}>Payment instructions</label>
      <textarea
        {...f.control('paymentInstructions')}
        name="paymentInstructions"
        rows={2}
        defaultValue={location?.paymentInstructions ?? ''}
      />
      {f.error('paymentInstructions')}
      <div className="check">
        <input {...f.control('bookingEnabled')} name="bookingEnabled" type="checkbox" defaultChecked={location?.bookingEnabled ?? true} />
        <label htmlFor={f.id('bookingEnabled')}>Booking enabled</label>
      </div>
      {f.error('bookingEnabled')}
      <FormAlert errors={errors} />
      <div className="form-actions">
        <button type="submit" disabled={save.isPending}>
          {location ? 'Save location' : 'Create location'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

interface LocationBody {
  slug: string;
  name: string;
  publicLocationName: string;
  timezone: string;
  address: { street: string; city: string; zip: string };
  bookingEnabled: boolean;
  slotIntervalMinutes: number;
  minNoticeMinutes: number;
  horizonDays: number;
  paymentInstructions: string;
}
