import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { Dialog } from '../../components/Dialog.tsx';
import { Field, fieldErrors } from '../../components/Field.tsx';
import { api, type Location, unwrap } from '../../lib/api.ts';
import type { operations } from '../../lib/api-types.ts';
import { useSession } from '../auth/session.ts';
import { useLocations } from '../calendar/queries.ts';

type CreateBody = operations['operatorCreateLocation']['requestBody']['content']['application/json'];

const ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    return [];
  }
})();

/**
 * Locations: every location, booking-disabled ones included; owners and managers create and edit
 * (the API's validation message beside the field it names); the front desk reads.
 */
export function LocationsPage() {
  const { slug = '' } = useParams();
  const { data: member } = useSession();
  const role = member?.memberships.find((m) => m.salonSlug === slug)?.role;
  const canWrite = role === 'owner' || role === 'manager';
  const locations = useLocations(slug);
  const [editing, setEditing] = useState<Location | 'new' | undefined>();

  useEffect(() => {
    document.title = 'Locations · Bookings dashboard';
  }, []);

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="calendar-bar">
        <h1 id="page-title">Locations</h1>
        {canWrite && (
          <button type="button" onClick={() => setEditing('new')}>
            New location
          </button>
        )}
      </div>
      {locations.isPending && <p className="loading">Loading locations…</p>}
      {locations.isError && <p role="alert">{locations.error.message}</p>}
      {locations.data && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Time zone</th>
              <th scope="col">Address</th>
              <th scope="col">Online booking</th>
              <th scope="col">Slots</th>
              {canWrite && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {locations.data.map((l) => (
              <tr key={l.id}>
                <th scope="row">
                  {l.name}
                  <br />
                  <span className="hint">
                    {l.slug}
                    {l.publicLocationName !== l.name ? ` · guests see “${l.publicLocationName}”` : ''}
                  </span>
                </th>
                <td>{l.timezone}</td>
                <td>
                  {l.address.street}, {l.address.zip} {l.address.city}
                </td>
                <td>{l.bookingEnabled ? 'enabled' : 'disabled'}</td>
                <td>
                  every {l.slotIntervalMinutes} min, {l.minNoticeMinutes} min notice, {l.horizonDays} days ahead
                </td>
                {canWrite && (
                  <td>
                    <button type="button" onClick={() => setEditing(l)}>
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
        open={editing !== undefined}
        onClose={() => setEditing(undefined)}
        title={editing === 'new' ? 'New location' : `Edit ${editing?.name ?? ''}`}
      >
        {editing !== undefined && (
          <LocationForm slug={slug} location={editing === 'new' ? undefined : editing} onDone={() => setEditing(undefined)} />
        )}
      </Dialog>
    </section>
  );
}

function LocationForm({ slug, location, onDone }: { slug: string; location: Location | undefined; onDone: () => void }) {
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: async (body: CreateBody) => {
      if (!location) return unwrap(await api.POST('/admin/v1/businesses/{slug}/locations', { params: { path: { slug } }, body }));
      const { slug: _unchanged, ...patch } = body;
      return unwrap(
        await api.PATCH('/admin/v1/businesses/{slug}/locations/{locationSlug}', {
          params: { path: { slug, locationSlug: location.slug } },
          body: patch,
        }),
      );
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['locations', slug] });
      onDone();
    },
  });
  const errors = fieldErrors(save.error);
  const unplaced = save.isError && errors.size === 0 ? save.error.message : undefined;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (n: string) => String(f.get(n) ?? '').trim();
    const int = (n: string) => Number.parseInt(text(n), 10);
    save.mutate({
      slug: text('slug') || (location?.slug ?? ''),
      name: text('name'),
      ...(text('publicLocationName') ? { publicLocationName: text('publicLocationName') } : {}),
      timezone: text('timezone'),
      address: { city: text('city'), street: text('street'), zip: text('zip') },
      bookingEnabled: f.get('bookingEnabled') === 'on',
      slotIntervalMinutes: int('slotIntervalMinutes'),
      minNoticeMinutes: int('minNoticeMinutes'),
      horizonDays: int('horizonDays'),
    });
  };

  const l = location;
  return (
    <form className="form" onSubmit={submit} noValidate>
      <Field label="Name" error={errors.get('name')}>
        {(a) => <input {...a} name="name" defaultValue={l?.name} />}
      </Field>
      {!l && (
        <Field label="Slug" error={errors.get('slug')} hint="lowercase letters, digits and dashes; used in links and the API">
          {(a) => <input {...a} name="slug" />}
        </Field>
      )}
      <Field label="Name shown to guests" error={errors.get('publicLocationName')} hint="the name when left empty">
        {(a) => <input {...a} name="publicLocationName" defaultValue={l && l.publicLocationName !== l.name ? l.publicLocationName : ''} />}
      </Field>
      <Field label="Time zone" error={errors.get('timezone')} hint="IANA name, e.g. Europe/Budapest">
        {(a) => <input {...a} name="timezone" list="time-zones" defaultValue={l?.timezone ?? 'Europe/Budapest'} />}
      </Field>
      <datalist id="time-zones">
        {ZONES.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      <Field label="Street" error={errors.get('address.street')}>
        {(a) => <input {...a} name="street" defaultValue={l?.address.street} />}
      </Field>
      <Field label="ZIP" error={errors.get('address.zip')}>
        {(a) => <input {...a} name="zip" defaultValue={l?.address.zip} />}
      </Field>
      <Field label="City" error={errors.get('address.city')}>
        {(a) => <input {...a} name="city" defaultValue={l?.address.city} />}
      </Field>
      <label className="check">
        <input type="checkbox" name="bookingEnabled" defaultChecked={l?.bookingEnabled ?? true} /> Online booking enabled
      </label>
      <Field label="Slot interval (minutes)" error={errors.get('slotIntervalMinutes')}>
        {(a) => <input {...a} name="slotIntervalMinutes" type="number" min={1} defaultValue={l?.slotIntervalMinutes ?? 15} />}
      </Field>
      <Field label="Minimum notice (minutes)" error={errors.get('minNoticeMinutes')}>
        {(a) => <input {...a} name="minNoticeMinutes" type="number" min={0} defaultValue={l?.minNoticeMinutes ?? 60} />}
      </Field>
      <Field label="Bookable ahead (days)" error={errors.get('horizonDays')}>
        {(a) => <input {...a} name="horizonDays" type="number" min={1} defaultValue={l?.horizonDays ?? 90} />}
      </Field>
      {unplaced && (
        <p role="alert" className="error">
          {unplaced}
        </p>
      )}
      {errors.size > 0 && (
        <p role="alert" className="error">
          Check the fields marked above.
        </p>
      )}
      <div className="form-actions">
        <button type="submit" disabled={save.isPending}>
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
