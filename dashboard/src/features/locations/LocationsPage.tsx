import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useParams } from 'react-router';
import { Field } from '../../components/Field.tsx';
import { EditButton, ListEditFrame } from '../../components/ListEditFrame.tsx';
import { checked, int, RecordForm, text } from '../../components/RecordForm.tsx';
import { Tag } from '../../components/Tag.tsx';
import { api, type Location, unwrap } from '../../lib/api.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { usePhone } from '../../lib/format.ts';
import { catalogueKeys } from '../../lib/query-keys.ts';
import { useCanEdit } from '../catalogue/location-param.tsx';
import { useLocations } from '../catalogue/queries.ts';

/** Every location of the business, booking-disabled ones included and marked. */
export function LocationsPage() {
  const { slug = '' } = useParams();
  const canEdit = useCanEdit(slug);
  const locations = useLocations(slug);
  const phone = usePhone();
  return (
    <ListEditFrame<Location>
      title="Locations"
      newLabel="New location"
      canCreate={canEdit}
      list={locations}
      loading="Loading locations…"
      empty="This business has no location yet."
      editTitle={(l) => `Edit ${l.name}`}
      renderForm={(l, done) => <LocationForm slug={slug} location={l} onDone={done} />}
      renderList={(rows, edit) => (
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
            {rows.map((l) => (
              <tr key={l.id} className={l.bookingEnabled ? undefined : 'row-inactive'}>
                <th scope="row">
                  {l.name}
                  {l.publicLocationName !== l.name && <div>Shown to guests as {l.publicLocationName}</div>}
                </th>
                <td data-label="Slug">{l.slug}</td>
                <td data-label="Time zone">{l.timezone}</td>
                <td data-label="Address">
                  {l.address.street}, {l.address.zip} {l.address.city}
                  {l.phone && <div>Phone {phone(l.phone)}</div>}
                </td>
                <td data-label="Booking rules">
                  every {l.slotIntervalMinutes} min, {l.minNoticeMinutes} min notice, {l.horizonDays} days ahead
                </td>
                <td data-label="State">{l.bookingEnabled ? 'Booking enabled' : <Tag warn>Booking disabled</Tag>}</td>
                {canEdit && (
                  <td>
                    <EditButton name={l.name} onClick={() => edit(l)} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    />
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
  'phone',
  'staffAssignment',
] as const;

const PHONE_RULE = 'Write the number with digits, spaces and + - ( ) only, at most 40 characters.';

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
            body: { ...body, paymentInstructions: body.paymentInstructions || null, phone: body.phone || null },
          }),
        ).location;
      }
      const { paymentInstructions, phone, ...rest } = body;
      return unwrap(
        await api.POST('/admin/v1/businesses/{slug}/locations', {
          params: { path: { slug } },
          body: { ...rest, ...(paymentInstructions ? { paymentInstructions } : {}), ...(phone ? { phone } : {}) },
        }),
      ).location;
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: catalogueKeys.locations(slug) });
      onDone();
    },
  });
  const errors = formErrors(save.error, LOCATION_FIELDS);
  const zonesId = useId();

  const submit = (d: FormData) =>
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
      phone: text(d, 'phone').trim(),
      staffAssignment: text(d, 'staffAssignment') === 'balanced' ? 'balanced' : 'ordered',
    });
  // The API names the rule as a pattern; a receptionist gets it in words.
  const e = errors.fields.phone ? { ...errors.fields, phone: PHONE_RULE } : errors.fields;

  return (
    <RecordForm
      className="form dialog-scroll catalog-form"
      errors={errors}
      error={save.error}
      pending={save.isPending}
      submitLabel={location ? 'Save location' : 'Create location'}
      onSubmit={submit}
      onCancel={onDone}
    >
      <Field label="Name" error={e.name}>
        <input name="name" required maxLength={200} defaultValue={location?.name ?? ''} />
      </Field>
      <Field label="Slug" error={e.slug} hint="Lowercase letters, digits and dashes; part of the booking addresses.">
        <input name="slug" required pattern="[a-z0-9-]+" maxLength={60} defaultValue={location?.slug ?? ''} />
      </Field>
      <Field label="Public name" error={e.publicLocationName}>
        <input name="publicLocationName" maxLength={200} defaultValue={location?.publicLocationName ?? ''} />
      </Field>
      <Field label="Time zone" error={e.timezone}>
        <input
          name="timezone"
          required
          list={zonesId}
          autoComplete="off"
          defaultValue={location?.timezone ?? ''}
          placeholder="Europe/Budapest"
        />
      </Field>
      <datalist id={zonesId}>
        {ZONES.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      <Field label="Street" error={e['address.street'] ?? e.address}>
        <input name="street" required defaultValue={location?.address.street ?? ''} />
      </Field>
      <Field label="City" error={e['address.city']}>
        <input name="city" required defaultValue={location?.address.city ?? ''} />
      </Field>
      <Field label="ZIP code" error={e['address.zip']}>
        <input name="zip" required defaultValue={location?.address.zip ?? ''} />
      </Field>
      <Field label="Slot interval (minutes)" error={e.slotIntervalMinutes}>
        <input name="slotIntervalMinutes" type="number" min={1} step={1} required defaultValue={location?.slotIntervalMinutes ?? 15} />
      </Field>
      <Field label="Minimum notice (minutes)" error={e.minNoticeMinutes}>
        <input name="minNoticeMinutes" type="number" min={0} step={1} required defaultValue={location?.minNoticeMinutes ?? 60} />
      </Field>
      <Field label="Booking horizon (days)" error={e.horizonDays}>
        <input name="horizonDays" type="number" min={1} step={1} required defaultValue={location?.horizonDays ?? 90} />
      </Field>
      <Field label="Phone" error={e.phone} hint="Shown to guests who can no longer cancel online. Digits, spaces, + - ( ).">
        <input name="phone" type="tel" autoComplete="off" maxLength={40} defaultValue={location?.phone ?? ''} />
      </Field>
      <Field label="Payment instructions" error={e.paymentInstructions}>
        <textarea name="paymentInstructions" rows={2} defaultValue={location?.paymentInstructions ?? ''} />
      </Field>
      <Field
        label="Any staff bookings go to"
        error={e.staffAssignment}
        hint="Who gets a booking made for any staff member, among those free at that time."
      >
        <select name="staffAssignment" defaultValue={location?.staffAssignment ?? 'ordered'}>
          <option value="ordered">The first free one in the staff order</option>
          <option value="balanced">The free one with the least booked time that day</option>
        </select>
      </Field>
      <Field label="Booking enabled" layout="check" error={e.bookingEnabled}>
        <input name="bookingEnabled" type="checkbox" defaultChecked={location?.bookingEnabled ?? true} />
      </Field>
    </RecordForm>
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
  phone: string;
  staffAssignment: 'ordered' | 'balanced';
}
