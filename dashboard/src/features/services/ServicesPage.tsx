import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { Temporal } from 'temporal-polyfill';
import { Dialog } from '../../components/Dialog.tsx';
import { api, type Location, unwrap } from '../../lib/api.ts';
import type { operations } from '../../lib/api-types.ts';
import { todayIn } from '../../lib/time.ts';
import { useServices, useStaff } from '../calendar/queries.ts';
import {
  checked,
  FormAlert,
  formErrors,
  int,
  LocationSwitcher,
  Tag,
  text,
  useBusiness,
  useCanEdit,
  useFields,
  useFocusFirstInvalid,
  useLocationParam,
} from './forms.tsx';

type Service = NonNullable<ReturnType<typeof useServices>['data']>[number];

/** Services of one location, inactive and not-online-bookable ones included and marked. */
export function ServicesPage() {
  const { slug = '' } = useParams();
  const canEdit = useCanEdit(slug);
  const { locations, all, location, select } = useLocationParam(slug);
  const services = useServices(slug, location?.slug);
  const [editing, setEditing] = useState<Service | 'new' | null>(null);
  const [sessionsOf, setSessionsOf] = useState<Service | null>(null);

  useEffect(() => {
    document.title = 'Services · Bookings dashboard';
  }, []);

  if (locations.isPending) return <p className="loading">Loading locations…</p>;
  if (locations.isError) return <p role="alert">{locations.error.message}</p>;
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="catalog-bar">
        <h1 id="page-title">Services</h1>
        {location && <LocationSwitcher all={all} value={location.slug} onChange={select} />}
        {canEdit && location && (
          <button type="button" onClick={() => setEditing('new')}>
            New service
          </button>
        )}
      </div>
      {!location && <p>This business has no location yet.</p>}
      {services.isError && <p role="alert">{services.error.message}</p>}
      {services.isPending && location && <p className="loading">Loading services…</p>}
      {services.data && services.data.length === 0 && <p>No service at this location yet.</p>}
      {services.data && services.data.length > 0 && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Duration</th>
              <th scope="col">Price</th>
              <th scope="col">Acceptance</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {services.data.map((s) => (
              <tr key={s.id} className={s.active ? undefined : 'row-inactive'}>
                <th scope="row">{s.name}</th>
                <td>{s.durationMinutes} min</td>
                <td>{priceText(s)}</td>
                <td>{s.requestAcceptancePolicy === 'manual' ? 'Manual' : 'Automatic'}</td>
                <td>
                  {!s.active && <Tag warn>Inactive</Tag>}
                  {!s.onlineBookable && <Tag warn>Not online-bookable</Tag>}
                  {s.bookingMode === 'groupSession' && <Tag>Group sessions</Tag>}
                  {s.deposit.required && <Tag>Deposit</Tag>}
                  {s.active && s.onlineBookable && s.bookingMode === 'standard' && !s.deposit.required && 'Active'}
                </td>
                <td className="inline-actions">
                  {canEdit && (
                    <button type="button" onClick={() => setEditing(s)} aria-label={`Edit ${s.name}`}>
                      Edit
                    </button>
                  )}
                  {s.bookingMode === 'groupSession' && (
                    <button type="button" onClick={() => setSessionsOf(s)} aria-label={`Sessions of ${s.name}`}>
                      Sessions
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {location && (
        <Dialog
          open={editing !== null}
          onClose={() => setEditing(null)}
          title={editing === 'new' || editing === null ? 'New service' : `Edit ${editing.name}`}
        >
          {editing !== null && (
            <ServiceForm
              slug={slug}
              location={location}
              service={editing === 'new' ? undefined : editing}
              onDone={() => setEditing(null)}
            />
          )}
        </Dialog>
      )}
      {location && (
        <Dialog open={sessionsOf !== null} onClose={() => setSessionsOf(null)} title={`Sessions of ${sessionsOf?.name ?? ''}`}>
          {sessionsOf && (
            <Sessions slug={slug} location={location} service={sessionsOf} canEdit={canEdit} onClose={() => setSessionsOf(null)} />
          )}
        </Dialog>
      )}
    </section>
  );
}

function priceText(s: Service): string {
  if (s.priceType === 'negotiable' || !s.price) return 'Negotiable';
  const amount = `${s.price.amount} ${s.price.currency}`;
  return s.priceType === 'from' ? `from ${amount}` : amount;
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
  'deposit.required',
  'deposit.termsVersion',
  'deposit.amount',
  'deposit',
  'locationSlug',
] as const;

function ServiceForm(props: { slug: string; location: Location; service: Service | undefined; onDone: () => void }) {
  const { slug, location, service, onDone } = props;
  const qc = useQueryClient();
  const business = useBusiness(slug);
  const currency = service?.price?.currency ?? business.data?.currency ?? '';
  const [priceType, setPriceType] = useState<Service['priceType']>(service?.priceType ?? 'fixed');
  const [depositRequired, setDepositRequired] = useState(service?.deposit.required ?? false);

  const save = useMutation({
    mutationFn: async ({ description, ...body }: Omit<ServiceBody, 'locationSlug'>) => {
      if (service) {
        const patch = { ...body, description: description || null };
        return unwrap(await api.PATCH('/admin/v1/services/{serviceId}', { params: { path: { serviceId: service.id } }, body: patch }))
          .service;
      }
      const create = { ...body, ...(description ? { description } : {}), locationSlug: location.slug };
      return unwrap(await api.POST('/admin/v1/businesses/{slug}/services', { params: { path: { slug } }, body: create })).service;
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['services', slug] });
      onDone();
    },
  });
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, save.error);
  const errors = formErrors(save.error, SERVICE_FIELDS);
  const f = useFields(errors);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const d = new FormData(e.currentTarget);
    const type = text(d, 'priceType') as Service['priceType'];
    const depositAmount = text(d, 'depositAmount');
    const description = text(d, 'description');
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
      deposit: checked(d, 'depositRequired')
        ? {
            required: true,
            termsVersion: text(d, 'depositTerms'),
            ...(depositAmount ? { amount: { amount: Number(depositAmount), currency } } : {}),
          }
        : { required: false },
    });
  };

  return (
    <form ref={formRef} className="form dialog-scroll catalog-form" onSubmit={submit} noValidate>
      <p>
        Location: <strong>{location.name}</strong>
      </p>
      <label htmlFor={f.id('name')}>Name</label>
      <input {...f.control('name')} name="name" required maxLength={200} defaultValue={service?.name ?? ''} />
      {f.error('name')}
      <label htmlFor={f.id('durationMinutes')}>Duration (minutes)</label>
      <input
        {...f.control('durationMinutes')}
        name="durationMinutes"
        type="number"
        min={1}
        step={1}
        required
        defaultValue={service?.durationMinutes ?? 30}
      />
      {f.error('durationMinutes')}
      <label htmlFor={f.id('priceType')}>Price type</label>
      <select
        {...f.control('priceType')}
        name="priceType"
        value={priceType}
        onChange={(e) => setPriceType(e.target.value as Service['priceType'])}
      >
        <option value="fixed">Fixed</option>
        <option value="from">From (a starting price)</option>
        <option value="negotiable">Negotiable (no price)</option>
      </select>
      {f.error('priceType')}
      {priceType !== 'negotiable' && (
        <>
          <label htmlFor={f.id('price')}>Price ({currency})</label>
          <input
            {...f.control('price')}
            name="price"
            type="number"
            min={0}
            step="any"
            required
            defaultValue={service?.price?.amount ?? ''}
          />
          {f.error('price')}
        </>
      )}
      <label htmlFor={f.id('description')}>Description</label>
      <textarea {...f.control('description')} name="description" rows={2} defaultValue={service?.description ?? ''} />
      {f.error('description')}
      <label htmlFor={f.id('requestAcceptancePolicy')}>Request acceptance</label>
      <select
        {...f.control('requestAcceptancePolicy')}
        name="requestAcceptancePolicy"
        defaultValue={service?.requestAcceptancePolicy ?? 'automatic'}
      >
        <option value="automatic">Automatic (confirmed at once)</option>
        <option value="manual">Manual (the salon accepts each request)</option>
      </select>
      {f.error('requestAcceptancePolicy')}
      <label htmlFor={f.id('bookingMode')}>Booking mode</label>
      <select {...f.control('bookingMode')} name="bookingMode" defaultValue={service?.bookingMode ?? 'standard'}>
        <option value="standard">Standard (one guest per slot)</option>
        <option value="groupSession">Group sessions</option>
      </select>
      {f.error('bookingMode')}
      <label htmlFor={f.id('bufferBeforeMinutes')}>Buffer before (minutes)</label>
      <input
        {...f.control('bufferBeforeMinutes')}
        name="bufferBeforeMinutes"
        type="number"
        min={0}
        step={1}
        defaultValue={service?.bufferBeforeMinutes ?? 0}
      />
      {f.error('bufferBeforeMinutes')}
      <label htmlFor={f.id('bufferAfterMinutes')}>Buffer after (minutes)</label>
      <input
        {...f.control('bufferAfterMinutes')}
        name="bufferAfterMinutes"
        type="number"
        min={0}
        step={1}
        defaultValue={service?.bufferAfterMinutes ?? 0}
      />
      {f.error('bufferAfterMinutes')}
      <div className="check">
        <input {...f.control('onlineBookable')} name="onlineBookable" type="checkbox" defaultChecked={service?.onlineBookable ?? true} />
        <label htmlFor={f.id('onlineBookable')}>Online bookable</label>
      </div>
      {f.error('onlineBookable')}
      <div className="check">
        <input {...f.control('active')} name="active" type="checkbox" defaultChecked={service?.active ?? true} />
        <label htmlFor={f.id('active')}>Active</label>
      </div>
      {f.error('active')}
      <div className="check">
        <input
          {...f.control('deposit.required')}
          name="depositRequired"
          type="checkbox"
          checked={depositRequired}
          onChange={(e) => setDepositRequired(e.target.checked)}
        />
        <label htmlFor={f.id('deposit.required')}>Deposit required</label>
      </div>
      {f.error('deposit.required')}
      {f.error('deposit')}
      {depositRequired && (
        <>
          <label htmlFor={f.id('deposit.termsVersion')}>Deposit terms version</label>
          <input {...f.control('deposit.termsVersion')} name="depositTerms" required defaultValue={service?.deposit.termsVersion ?? ''} />
          {f.error('deposit.termsVersion')}
          <label htmlFor={f.id('deposit.amount')}>Deposit amount ({currency})</label>
          <input
            {...f.control('deposit.amount')}
            name="depositAmount"
            type="number"
            min={0}
            step="any"
            defaultValue={service?.deposit.amount?.amount ?? ''}
          />
          {f.error('deposit.amount')}
        </>
      )}
      <FormAlert errors={errors} />
      <div className="form-actions">
        <button type="submit" disabled={save.isPending || !currency}>
          {service ? 'Save service' : 'Create service'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

type ServiceBody = operations['operatorCreateService']['requestBody']['content']['application/json'];

/** Group sessions of a groupSession service: list with seats taken, and add one. */
function Sessions(props: { slug: string; location: Location; service: Service; canEdit: boolean; onClose: () => void }) {
  const { slug, location, service, canEdit, onClose } = props;
  const qc = useQueryClient();
  const zone = location.timezone;
  const staff = useStaff(slug, location.slug);
  const performers = (staff.data ?? []).filter((s) => s.serviceIds.includes(service.id));
  const names = new Map((staff.data ?? []).map((s) => [s.id, s.name]));
  const sessions = useQuery({
    queryKey: ['sessions', service.id],
    queryFn: async () =>
      unwrap(await api.GET('/admin/v1/services/{serviceId}/sessions', { params: { path: { serviceId: service.id } } })).sessions,
  });
  const add = useMutation({
    mutationFn: async (body: { staffId: string; startAtUtc: string; endAtUtc: string; capacityMax: number; priceMinor?: number }) =>
      unwrap(await api.POST('/admin/v1/services/{serviceId}/sessions', { params: { path: { serviceId: service.id } }, body })).session,
    onSuccess: () => qc.invalidateQueries({ queryKey: ['sessions', service.id] }),
  });
  const known = ['staffId', 'startAtUtc', 'endAtUtc', 'capacityMax', 'priceMinor'];
  const errors = formErrors(add.error, known);
  const f = useFields(errors);
  const [localError, setLocalError] = useState<string | null>(null);

  const local = (iso: string) => {
    const z = Temporal.Instant.from(iso).toZonedDateTimeISO(zone);
    return `${z.toPlainDate().toString()} ${z.toPlainTime().toString({ smallestUnit: 'minute' })}`;
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const d = new FormData(e.currentTarget);
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
      setLocalError('Give a date, a start time and an end time.');
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
      <p>Times in {zone}.</p>
      {sessions.isError && <p role="alert">{sessions.error.message}</p>}
      {sessions.data && sessions.data.length === 0 && <p>No session yet.</p>}
      {sessions.data && sessions.data.length > 0 && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Start</th>
              <th scope="col">End</th>
              <th scope="col">Staff</th>
              <th scope="col">Seats taken</th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.map((s) => (
              <tr key={s.id}>
                <td>{local(s.startAtUtc)}</td>
                <td>{local(s.endAtUtc)}</td>
                <td>{names.get(s.staffId) ?? s.staffId}</td>
                <td>
                  {s.seatsTaken} / {s.capacityMax}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canEdit && (
        <form className="form" onSubmit={submit} aria-label="Add session" noValidate>
          <h3>Add session</h3>
          <label htmlFor={f.id('staffId')}>Staff</label>
          <select {...f.control('staffId')} name="staffId" required>
            {performers.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          {f.error('staffId')}
          <label htmlFor={f.id('date')}>Date</label>
          <input id={f.id('date')} name="date" type="date" required defaultValue={todayIn(zone)} />
          <label htmlFor={f.id('startAtUtc')}>Start time</label>
          <input {...f.control('startAtUtc')} name="start" type="time" required defaultValue="10:00" />
          {f.error('startAtUtc')}
          <label htmlFor={f.id('endAtUtc')}>End time</label>
          <input {...f.control('endAtUtc')} name="end" type="time" required defaultValue="11:00" />
          {f.error('endAtUtc')}
          <label htmlFor={f.id('capacityMax')}>Capacity</label>
          <input {...f.control('capacityMax')} name="capacityMax" type="number" min={1} step={1} required defaultValue={8} />
          {f.error('capacityMax')}
          <label htmlFor={f.id('priceMinor')}>Price per seat (minor units, optional)</label>
          <input {...f.control('priceMinor')} name="priceMinor" type="number" min={0} step={1} />
          {f.error('priceMinor')}
          {localError && (
            <p role="alert" className="error">
              {localError}
            </p>
          )}
          <FormAlert errors={errors} />
          <div className="form-actions">
            <button type="submit" disabled={add.isPending || performers.length === 0}>
              Add session
            </button>
            <button type="button" onClick={onClose}>
              Close
            </button>
          </div>
        </form>
      )}
      {!canEdit && (
        <div className="form-actions">
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      )}
    </div>
  );
}
