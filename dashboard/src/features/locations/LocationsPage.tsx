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
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { locationsWords } from './words.ts';

/** Every location of the business, booking-disabled ones included and marked. */
export function LocationsPage() {
  const w = usePageWords(locationsWords);
  const { slug = '' } = useParams();
  const canEdit = useCanEdit(slug);
  const locations = useLocations(slug);
  const phone = usePhone();
  return (
    <ListEditFrame<Location>
      title={w.title}
      newLabel={w.newLocation}
      canCreate={canEdit}
      list={locations}
      loading={w.loading}
      empty={w.empty}
      editTitle={(l) => w.edit(l.name)}
      renderForm={(l, done) => <LocationForm slug={slug} location={l} onDone={done} />}
      renderList={(rows, edit) => (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{w.name}</th>
              <th scope="col">{w.slug}</th>
              <th scope="col">{w.timeZone}</th>
              <th scope="col">{w.address}</th>
              <th scope="col">{w.bookingRules}</th>
              <th scope="col">{w.state}</th>
              {canEdit && <th scope="col">{w.actions}</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((l) => (
              <tr key={l.id} className={l.bookingEnabled ? undefined : 'row-inactive'}>
                <th scope="row">
                  {l.name}
                  {l.publicLocationName !== l.name && <div>{w.shownAs(l.publicLocationName)}</div>}
                </th>
                <td data-label={w.slug}>{l.slug}</td>
                <td data-label={w.timeZone}>{l.timezone}</td>
                <td data-label={w.address}>
                  {l.address.street}, {l.address.zip} {l.address.city}
                  {l.phone && <div>{w.phoneLine(phone(l.phone))}</div>}
                </td>
                <td data-label={w.bookingRules}>{w.rules(l.slotIntervalMinutes, l.minNoticeMinutes, l.horizonDays)}</td>
                <td data-label={w.state}>{l.bookingEnabled ? w.bookingEnabled : <Tag warn>{w.bookingDisabled}</Tag>}</td>
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
  const w = usePageWords(locationsWords);
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
  const e = errors.fields.phone ? { ...errors.fields, phone: w.phoneRule } : errors.fields;

  return (
    <RecordForm
      className="form dialog-scroll catalog-form"
      errors={errors}
      error={save.error}
      pending={save.isPending}
      submitLabel={location ? w.save : w.create}
      onSubmit={submit}
      onCancel={onDone}
    >
      <Field label={w.name} error={e.name}>
        <input name="name" required maxLength={200} defaultValue={location?.name ?? ''} />
      </Field>
      <Field label={w.slug} error={e.slug} hint={w.slugHint}>
        <input name="slug" required pattern="[a-z0-9-]+" maxLength={60} defaultValue={location?.slug ?? ''} />
      </Field>
      <Field label={w.publicName} error={e.publicLocationName}>
        <input name="publicLocationName" maxLength={200} defaultValue={location?.publicLocationName ?? ''} />
      </Field>
      <Field label={w.timeZone} error={e.timezone}>
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
      <Field label={w.street} error={e['address.street'] ?? e.address}>
        <input name="street" required defaultValue={location?.address.street ?? ''} />
      </Field>
      <Field label={w.city} error={e['address.city']}>
        <input name="city" required defaultValue={location?.address.city ?? ''} />
      </Field>
      <Field label={w.zip} error={e['address.zip']}>
        <input name="zip" required defaultValue={location?.address.zip ?? ''} />
      </Field>
      <Field label={w.slotInterval} error={e.slotIntervalMinutes}>
        <input name="slotIntervalMinutes" type="number" min={1} step={1} required defaultValue={location?.slotIntervalMinutes ?? 15} />
      </Field>
      <Field label={w.minNotice} error={e.minNoticeMinutes}>
        <input name="minNoticeMinutes" type="number" min={0} step={1} required defaultValue={location?.minNoticeMinutes ?? 60} />
      </Field>
      <Field label={w.horizon} error={e.horizonDays}>
        <input name="horizonDays" type="number" min={1} step={1} required defaultValue={location?.horizonDays ?? 90} />
      </Field>
      <Field label={w.phone} error={e.phone} hint={w.phoneHint}>
        <input name="phone" type="tel" autoComplete="off" maxLength={40} defaultValue={location?.phone ?? ''} />
      </Field>
      <Field label={w.paymentInstructions} error={e.paymentInstructions}>
        <textarea name="paymentInstructions" rows={2} defaultValue={location?.paymentInstructions ?? ''} />
      </Field>
      <Field label={w.anyStaff} error={e.staffAssignment} hint={w.anyStaffHint}>
        <select name="staffAssignment" defaultValue={location?.staffAssignment ?? 'ordered'}>
          <option value="ordered">{w.ordered}</option>
          <option value="balanced">{w.balanced}</option>
        </select>
      </Field>
      <Field label={w.bookingEnabled} layout="check" error={e.bookingEnabled}>
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
