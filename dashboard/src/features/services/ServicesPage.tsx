import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Temporal } from 'temporal-polyfill';
import { Dialog } from '../../components/Dialog.tsx';
import { Field, FieldGroup } from '../../components/Field.tsx';
import { EditButton, ListEditFrame } from '../../components/ListEditFrame.tsx';
import { LocationSwitcher } from '../../components/LocationSwitcher.tsx';
import { checked, int, RecordForm, text } from '../../components/RecordForm.tsx';
import { Tag } from '../../components/Tag.tsx';
import { api, type Location, unwrap } from '../../lib/api.ts';
import type { operations } from '../../lib/api-types.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { money } from '../../lib/format.ts';
import { catalogueKeys } from '../../lib/query-keys.ts';
import { todayIn } from '../../lib/time.ts';
import { useCanEdit, useLocationParam } from '../catalogue/location-param.tsx';
import { type Service, useBusiness, useResources, useServices, useStaff } from '../catalogue/queries.ts';
import { StaffSelect } from '../catalogue/StaffSelect.tsx';
import { ProcessingFields, segmentsFrom } from './ProcessingFields.tsx';
import { StaffVariantFields, VARIANT_ERROR_FIELDS, variantsFrom, variantStaff } from './StaffVariantFields.tsx';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { servicesWords } from './words.ts';

/** Services of one location, inactive and not-online-bookable ones included and marked. */
export function ServicesPage() {
  const w = usePageWords(servicesWords);
  const { slug = '' } = useParams();
  const canEdit = useCanEdit(slug);
  const { locations, all, location, select } = useLocationParam(slug);
  const services = useServices(slug, location?.slug);
  const [sessionsOf, setSessionsOf] = useState<Service | null>(null);

  if (locations.isPending) return <p className="loading">{w.loadingLocations}</p>;
  if (locations.isError) return <p role="alert">{locations.error.message}</p>;
  return (
    <ListEditFrame<Service>
      title={w.title}
      newLabel={w.newService}
      canCreate={canEdit && location !== undefined}
      toolbar={location && <LocationSwitcher all={all} value={location.slug} onChange={select} />}
      intro={!location && <p>{w.noLocation}</p>}
      list={location ? services : undefined}
      loading={w.loading}
      empty={w.empty}
      editTitle={(s) => w.edit(s.name)}
      renderForm={(s, done) => location && <ServiceForm slug={slug} location={location} service={s} onDone={done} />}
      renderList={(rows, edit) => (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{w.name}</th>
              <th scope="col">{w.duration}</th>
              <th scope="col">{w.price}</th>
              <th scope="col">{w.acceptance}</th>
              <th scope="col">{w.state}</th>
              <th scope="col">{w.actions}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.id} className={s.active ? undefined : 'row-inactive'}>
                <th scope="row">{s.name}</th>
                <td data-label={w.duration}>
                  {w.minutes(s.durationMinutes)}
                  {s.staffVariants.length > 0 && <Tag>{w.variesByStaff}</Tag>}
                </td>
                <td data-label={w.price}>{priceText(w, s)}</td>
                <td data-label={w.acceptance}>{s.requestAcceptancePolicy === 'manual' ? w.manual : w.automatic}</td>
                <td data-label={w.state}>
                  {!s.active && <Tag warn>{w.inactive}</Tag>}
                  {!s.onlineBookable && <Tag warn>{w.notOnline}</Tag>}
                  {s.bookingMode === 'groupSession' && <Tag>{w.groupSessions}</Tag>}
                  {s.deposit.required && <Tag>{w.deposit}</Tag>}
                  {s.active && s.onlineBookable && s.bookingMode === 'standard' && !s.deposit.required && w.active}
                </td>
                <td className="inline-actions">
                  {canEdit && <EditButton name={s.name} onClick={() => edit(s)} />}
                  {s.bookingMode === 'groupSession' && (
                    <button type="button" onClick={() => setSessionsOf(s)} aria-label={w.sessionsOf(s.name)}>
                      {w.sessions}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    >
      {location && (
        <Dialog open={sessionsOf !== null} onClose={() => setSessionsOf(null)} title={w.sessionsOf(sessionsOf?.name ?? '')}>
          {sessionsOf && (
            <Sessions slug={slug} location={location} service={sessionsOf} canEdit={canEdit} onClose={() => setSessionsOf(null)} />
          )}
        </Dialog>
      )}
    </ListEditFrame>
  );
}

function priceText(w: typeof servicesWords.en, s: Service): string {
  if (s.priceType === 'negotiable' || !s.price) return w.negotiable;
  const amount = money(s.price.amount, s.price.currency);
  return s.priceType === 'from' ? w.fromPrice(amount) : amount;
}

const SERVICE_FIELDS = [
  'name',
  'durationMinutes',
  'priceType',
  'price',
  'description',
  'requestAcceptancePolicy',
  'onlineBookable',
  'active',
  'onSite',
  'bookingMode',
  'bufferBeforeMinutes',
  'bufferAfterMinutes',
  'segments',
  'deposit.required',
  'deposit.termsVersion',
  'deposit.amount',
  'deposit',
  'locationSlug',
  'resourceIds',
  'staffVariants',
  ...VARIANT_ERROR_FIELDS,
];

function ServiceForm(props: { slug: string; location: Location; service: Service | undefined; onDone: () => void }) {
  const { slug, location, service, onDone } = props;
  const w = usePageWords(servicesWords);
  const qc = useQueryClient();
  const business = useBusiness(slug);
  const currency = service?.price?.currency ?? business.data?.currency ?? '';
  const [priceType, setPriceType] = useState<Service['priceType']>(service?.priceType ?? 'fixed');
  const [depositRequired, setDepositRequired] = useState(service?.deposit.required ?? false);
  const resources = useResources(slug, location.slug);
  const [resourceIds, setResourceIds] = useState<string[]>(service?.resourceIds ?? []);
  // Offered: the location's active resources, and any inactive one the service already needs (kept unless unticked).
  const choices = (resources.data ?? []).filter((r) => r.active || resourceIds.includes(r.id));
  const staff = useStaff(slug, location.slug);
  const variantRows = variantStaff(staff.data ?? [], service);
  // the API names a variant's problem by its index in the list sent: which staff member that was
  const [sentVariants, setSentVariants] = useState<string[]>([]);

  const save = useMutation({
    mutationFn: async ({ description, ...body }: Omit<ServiceBody, 'locationSlug'>) => {
      if (service) {
        const patch = { ...body, description: description || null };
        return unwrap(await api.PATCH('/admin/v1/services/{serviceId}', { params: { path: { serviceId: service.id } }, body: patch }))
          .service;
      }
      const { segments, ...rest } = body;
      const create = { ...rest, ...(segments ? { segments } : {}), ...(description ? { description } : {}), locationSlug: location.slug };
      return unwrap(await api.POST('/admin/v1/businesses/{slug}/services', { params: { path: { slug } }, body: create })).service;
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: catalogueKeys.servicesAll(slug) });
      onDone();
    },
  });
  const errors = formErrors(save.error, SERVICE_FIELDS);
  const e = errors.fields;
  const variantErrors = Object.fromEntries(sentVariants.map((id, i) => [id, e[`staffVariants.${i}`]]));

  const submit = (d: FormData) => {
    const type = text(d, 'priceType') as Service['priceType'];
    const depositAmount = text(d, 'depositAmount');
    const description = text(d, 'description');
    const segments = segmentsFrom(d, int(d, 'durationMinutes'), service);
    const staffVariants = variantsFrom(d, variantRows, service, {
      durationMinutes: int(d, 'durationMinutes'),
      priceType: type,
      currency,
      segments,
    });
    setSentVariants(staffVariants.map((v) => v.staffId));
    save.mutate({
      name: text(d, 'name'),
      durationMinutes: int(d, 'durationMinutes'),
      priceType: type,
      price: type === 'negotiable' ? null : { amount: int(d, 'price'), currency },
      description,
      requestAcceptancePolicy: text(d, 'requestAcceptancePolicy') as Service['requestAcceptancePolicy'],
      onlineBookable: checked(d, 'onlineBookable'),
      active: checked(d, 'active'),
      bookingMode: text(d, 'bookingMode') as Service['bookingMode'],
      bufferBeforeMinutes: int(d, 'bufferBeforeMinutes'),
      bufferAfterMinutes: int(d, 'bufferAfterMinutes'),
      segments,
      staffVariants,
      deposit: checked(d, 'depositRequired')
        ? {
            required: true,
            termsVersion: text(d, 'depositTerms'),
            ...(depositAmount ? { amount: { amount: Number(depositAmount), currency } } : {}),
          }
        : { required: false },
      resourceIds,
    });
  };

  return (
    <RecordForm
      className="form dialog-scroll catalog-form"
      errors={errors}
      error={save.error}
      pending={save.isPending}
      submitDisabled={!currency}
      submitLabel={service ? w.save : w.create}
      onSubmit={submit}
      onCancel={onDone}
    >
      <p>
        {w.location} <strong>{location.name}</strong>
      </p>
      <Field label={w.name} error={e.name}>
        <input name="name" required maxLength={200} defaultValue={service?.name ?? ''} />
      </Field>
      <Field label={w.durationMinutes} error={e.durationMinutes}>
        <input name="durationMinutes" type="number" min={1} step={1} required defaultValue={service?.durationMinutes ?? 30} />
      </Field>
      <Field label={w.priceType} error={e.priceType}>
        <select name="priceType" value={priceType} onChange={(ev) => setPriceType(ev.target.value as Service['priceType'])}>
          <option value="fixed">{w.fixed}</option>
          <option value="from">{w.fromOption}</option>
          <option value="negotiable">{w.negotiableOption}</option>
        </select>
      </Field>
      {priceType !== 'negotiable' && (
        <Field label={w.priceIn(currency)} error={e.price}>
          <input name="price" type="number" min={0} step="any" required defaultValue={service?.price?.amount ?? ''} />
        </Field>
      )}
      <Field label={w.description} error={e.description}>
        <textarea name="description" rows={2} defaultValue={service?.description ?? ''} />
      </Field>
      <Field label={w.requestAcceptance} error={e.requestAcceptancePolicy}>
        <select name="requestAcceptancePolicy" defaultValue={service?.requestAcceptancePolicy ?? 'automatic'}>
          <option value="automatic">{w.automaticOption}</option>
          <option value="manual">{w.manualOption}</option>
        </select>
      </Field>
      <Field label={w.bookingMode} error={e.bookingMode}>
        <select name="bookingMode" defaultValue={service?.bookingMode ?? 'standard'}>
          <option value="standard">{w.standardOption}</option>
          <option value="groupSession">{w.groupSessions}</option>
        </select>
      </Field>
      <Field label={w.bufferBefore} error={e.bufferBeforeMinutes}>
        <input name="bufferBeforeMinutes" type="number" min={0} step={1} defaultValue={service?.bufferBeforeMinutes ?? 0} />
      </Field>
      <Field label={w.bufferAfter} error={e.bufferAfterMinutes}>
        <input name="bufferAfterMinutes" type="number" min={0} step={1} defaultValue={service?.bufferAfterMinutes ?? 0} />
      </Field>
      <ProcessingFields service={service} error={e.segments} />
      <StaffVariantFields staff={variantRows} service={service} priceType={priceType} currency={currency} errors={variantErrors} />
      {e.staffVariants && <p className="field-error">{e.staffVariants}</p>}
      <Field label={w.onlineBookable} layout="check" error={e.onlineBookable}>
        <input name="onlineBookable" type="checkbox" defaultChecked={service?.onlineBookable ?? true} />
      </Field>
      <Field label={w.active} layout="check" error={e.active}>
        <input name="active" type="checkbox" defaultChecked={service?.active ?? true} />
      </Field>
      <FieldGroup legend={w.resources} error={e.resourceIds}>
        {resources.isSuccess && choices.length === 0 && <p>{w.noResource}</p>}
        {choices.map((r) => (
          <Field key={r.id} layout="check" label={`${r.name}${r.active ? '' : w.inactiveSuffix}`}>
            <input
              type="checkbox"
              checked={resourceIds.includes(r.id)}
              onChange={(ev) => setResourceIds((ids) => (ev.target.checked ? [...ids, r.id] : ids.filter((x) => x !== r.id)))}
            />
          </Field>
        ))}
      </FieldGroup>
      <Field label={w.depositRequired} layout="check" error={e['deposit.required'] ?? e.deposit}>
        <input name="depositRequired" type="checkbox" checked={depositRequired} onChange={(ev) => setDepositRequired(ev.target.checked)} />
      </Field>
      {depositRequired && (
        <>
          <Field label={w.depositTerms} error={e['deposit.termsVersion']}>
            <input name="depositTerms" required defaultValue={service?.deposit.termsVersion ?? ''} />
          </Field>
          <Field label={w.depositAmount(currency)} error={e['deposit.amount']}>
            <input name="depositAmount" type="number" min={0} step="any" defaultValue={service?.deposit.amount?.amount ?? ''} />
          </Field>
        </>
      )}
    </RecordForm>
  );
}

/** A create's body; `segments: null` (take processing time away) only ever goes out in a patch. */
type ServiceBody = Omit<operations['operatorCreateService']['requestBody']['content']['application/json'], 'segments'> & {
  segments?: Service['segments'] | null | undefined;
};

/** Group sessions of a groupSession service: list with seats taken, and add one. */
function Sessions(props: { slug: string; location: Location; service: Service; canEdit: boolean; onClose: () => void }) {
  const { slug, location, service, canEdit, onClose } = props;
  const w = usePageWords(servicesWords);
  const qc = useQueryClient();
  const zone = location.timezone;
  const staff = useStaff(slug, location.slug);
  const performers = (staff.data ?? []).filter((s) => s.serviceIds.includes(service.id));
  const names = new Map((staff.data ?? []).map((s) => [s.id, s.name]));
  const sessions = useQuery({
    queryKey: catalogueKeys.sessions(service.id),
    queryFn: async () =>
      unwrap(await api.GET('/admin/v1/services/{serviceId}/sessions', { params: { path: { serviceId: service.id } } })).sessions,
  });
  const add = useMutation({
    mutationFn: async (body: { staffId: string; startAtUtc: string; endAtUtc: string; capacityMax: number; priceMinor?: number }) =>
      unwrap(await api.POST('/admin/v1/services/{serviceId}/sessions', { params: { path: { serviceId: service.id } }, body })).session,
    onSuccess: () => qc.invalidateQueries({ queryKey: catalogueKeys.sessions(service.id) }),
  });
  const errors = formErrors(add.error, ['staffId', 'startAtUtc', 'endAtUtc', 'capacityMax', 'priceMinor']);
  const e = errors.fields;
  const [localError, setLocalError] = useState<string | null>(null);

  const local = (iso: string) => {
    const z = Temporal.Instant.from(iso).toZonedDateTimeISO(zone);
    return `${z.toPlainDate().toString()} ${z.toPlainTime().toString({ smallestUnit: 'minute' })}`;
  };
  const submit = (d: FormData) => {
    setLocalError(null);
    let startAtUtc: string;
    let endAtUtc: string;
    try {
      const day = Temporal.PlainDate.from(text(d, 'date'));
      startAtUtc = day
        .toZonedDateTime({ timeZone: zone, plainTime: Temporal.PlainTime.from(text(d, 'start')) })
        .toInstant()
        .toString();
      endAtUtc = day
        .toZonedDateTime({ timeZone: zone, plainTime: Temporal.PlainTime.from(text(d, 'end')) })
        .toInstant()
        .toString();
    } catch {
      setLocalError(w.sessionTimesNeeded);
      return;
    }
    const price = text(d, 'priceMinor');
    add.mutate({
      staffId: text(d, 'staffId'),
      startAtUtc,
      endAtUtc,
      capacityMax: int(d, 'capacityMax'),
      ...(price ? { priceMinor: Number(price) } : {}),
    });
  };

  return (
    <div className="dialog-scroll catalog-form">
      <p>{w.timesIn(zone)}</p>
      {sessions.isError && <p role="alert">{sessions.error.message}</p>}
      {sessions.data && sessions.data.length === 0 && <p>{w.noSession}</p>}
      {sessions.data && sessions.data.length > 0 && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{w.start}</th>
              <th scope="col">{w.end}</th>
              <th scope="col">{w.staff}</th>
              <th scope="col">{w.seatsTaken}</th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.map((s) => (
              <tr key={s.id}>
                <td data-label={w.start}>{local(s.startAtUtc)}</td>
                <td data-label={w.end}>{local(s.endAtUtc)}</td>
                <td data-label={w.staff}>{names.get(s.staffId) ?? s.staffId}</td>
                <td data-label={w.seatsTaken}>
                  {s.seatsTaken} / {s.capacityMax}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canEdit && (
        <RecordForm
          aria-label={w.addSession}
          errors={errors}
          error={add.error}
          pending={add.isPending}
          submitDisabled={performers.length === 0}
          submitLabel={w.addSession}
          onSubmit={submit}
          onCancel={onClose}
          cancelLabel={w.close}
          before={
            localError && (
              <p role="alert" className="error">
                {localError}
              </p>
            )
          }
        >
          <h3>{w.addSession}</h3>
          <StaffSelect staff={performers} error={e.staffId} required />
          <Field label={w.date}>
            <input name="date" type="date" required defaultValue={todayIn(zone)} />
          </Field>
          <Field label={w.startTime} error={e.startAtUtc}>
            <input name="start" type="time" required defaultValue="10:00" />
          </Field>
          <Field label={w.endTime} error={e.endAtUtc}>
            <input name="end" type="time" required defaultValue="11:00" />
          </Field>
          <Field label={w.capacity} error={e.capacityMax}>
            <input name="capacityMax" type="number" min={1} step={1} required defaultValue={8} />
          </Field>
          <Field label={w.pricePerSeat} error={e.priceMinor}>
            <input name="priceMinor" type="number" min={0} step={1} />
          </Field>
        </RecordForm>
      )}
      {!canEdit && (
        <div className="form-actions">
          <button type="button" onClick={onClose}>
            {w.close}
          </button>
        </div>
      )}
    </div>
  );
}
