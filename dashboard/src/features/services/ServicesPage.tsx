import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { Dialog } from '../../components/Dialog.tsx';
import { Field, fieldErrors } from '../../components/Field.tsx';
import { api, unwrap } from '../../lib/api.ts';
import type { operations } from '../../lib/api-types.ts';
import { useSession } from '../auth/session.ts';
import { useLocations, useServices } from '../calendar/queries.ts';

type CreateBody = operations['operatorCreateService']['requestBody']['content']['application/json'];
type Service = NonNullable<ReturnType<typeof useServices>['data']>[number];

function useBusiness(slug: string) {
  return useQuery({
    queryKey: ['business', slug],
    queryFn: async () => unwrap(await api.GET('/admin/v1/businesses/{slug}', { params: { path: { slug } } })).business,
    staleTime: 5 * 60_000,
  });
}

function priceText(s: Service): string {
  if (!s.price) return 'negotiable';
  return `${s.priceType === 'from' ? 'from ' : ''}${s.price.amount} ${s.price.currency}`;
}

/**
 * Services: every service of every location, inactive and not-online-bookable ones included;
 * owners and managers create and edit (the API's message beside its field); the front desk reads.
 * Deposits and group sessions are not edited here yet.
 */
export function ServicesPage() {
  const { slug = '' } = useParams();
  const { data: member } = useSession();
  const role = member?.memberships.find((m) => m.salonSlug === slug)?.role;
  const canWrite = role === 'owner' || role === 'manager';
  const services = useServices(slug, undefined, true);
  const locations = useLocations(slug);
  const [editing, setEditing] = useState<Service | 'new' | undefined>();
  const locationName = new Map((locations.data ?? []).map((l) => [l.slug, l.name]));

  useEffect(() => {
    document.title = 'Services · Bookings dashboard';
  }, []);

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="calendar-bar">
        <h1 id="page-title">Services</h1>
        {canWrite && (
          <button type="button" onClick={() => setEditing('new')}>
            New service
          </button>
        )}
      </div>
      {services.isPending && <p className="loading">Loading services…</p>}
      {services.isError && <p role="alert">{services.error.message}</p>}
      {services.data && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Location</th>
              <th scope="col">Duration</th>
              <th scope="col">Price</th>
              <th scope="col">Requests</th>
              <th scope="col">State</th>
              {canWrite && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {services.data.map((s) => (
              <tr key={s.id}>
                <th scope="row">{s.name}</th>
                <td>{locationName.get(s.locationSlug) ?? s.locationSlug}</td>
                <td>
                  {s.durationMinutes} min
                  {s.bufferBeforeMinutes + s.bufferAfterMinutes > 0 ? ` (+${s.bufferBeforeMinutes}/${s.bufferAfterMinutes} buffer)` : ''}
                </td>
                <td>{priceText(s)}</td>
                <td>{s.requestAcceptancePolicy === 'manual' ? 'accepted by the salon' : 'confirmed at once'}</td>
                <td>
                  {[
                    s.active ? 'active' : 'inactive',
                    s.onlineBookable ? 'online' : 'not online',
                    s.bookingMode === 'groupSession' ? 'group' : '',
                  ]
                    .filter(Boolean)
                    .join(', ')}
                </td>
                {canWrite && (
                  <td>
                    <button type="button" onClick={() => setEditing(s)}>
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
        title={editing === 'new' ? 'New service' : `Edit ${editing?.name ?? ''}`}
      >
        {editing !== undefined && (
          <ServiceForm slug={slug} service={editing === 'new' ? undefined : editing} onDone={() => setEditing(undefined)} />
        )}
      </Dialog>
    </section>
  );
}

function ServiceForm({ slug, service, onDone }: { slug: string; service: Service | undefined; onDone: () => void }) {
  const qc = useQueryClient();
  const business = useBusiness(slug);
  const locations = useLocations(slug);
  const [priceType, setPriceType] = useState<CreateBody['priceType']>(service?.priceType ?? 'fixed');
  const save = useMutation({
    mutationFn: async (body: CreateBody) => {
      if (!service) return unwrap(await api.POST('/admin/v1/businesses/{slug}/services', { params: { path: { slug } }, body }));
      const { locationSlug: _fixed, description, ...patch } = body;
      return unwrap(
        await api.PATCH('/admin/v1/services/{serviceId}', {
          params: { path: { serviceId: service.id } },
          body: { ...patch, description: description ?? null },
        }),
      );
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['services', slug] });
      onDone();
    },
  });
  const errors = fieldErrors(save.error);
  const unplaced = save.isError && errors.size === 0 ? save.error.message : undefined;
  const currency = business.data?.currency ?? service?.price?.currency ?? '';

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (n: string) => String(f.get(n) ?? '').trim();
    const num = (n: string) => (text(n) === '' ? Number.NaN : Number(text(n)));
    const description = text('description');
    save.mutate({
      locationSlug: text('locationSlug') || (service?.locationSlug ?? ''),
      name: text('name'),
      ...(description ? { description } : {}),
      durationMinutes: num('durationMinutes'),
      priceType,
      price: priceType === 'negotiable' ? null : { amount: num('price'), currency },
      requestAcceptancePolicy: text('requestAcceptancePolicy') === 'manual' ? 'manual' : 'automatic',
      onlineBookable: f.get('onlineBookable') === 'on',
      active: f.get('active') === 'on',
      bufferBeforeMinutes: num('bufferBeforeMinutes'),
      bufferAfterMinutes: num('bufferAfterMinutes'),
    });
  };

  const s = service;
  return (
    <form className="form" onSubmit={submit} noValidate>
      {!s && (
        <Field label="Location" error={errors.get('locationSlug')}>
          {(a) => (
            <select {...a} name="locationSlug">
              {(locations.data ?? []).map((l) => (
                <option key={l.slug} value={l.slug}>
                  {l.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field label="Name" error={errors.get('name')}>
        {(a) => <input {...a} name="name" defaultValue={s?.name} />}
      </Field>
      <Field label="Description" error={errors.get('description')}>
        {(a) => <textarea {...a} name="description" rows={2} defaultValue={s?.description ?? ''} />}
      </Field>
      <Field label="Duration (minutes)" error={errors.get('durationMinutes')}>
        {(a) => <input {...a} name="durationMinutes" type="number" min={1} defaultValue={s?.durationMinutes ?? 30} />}
      </Field>
      <Field label="Price type" error={errors.get('priceType')}>
        {(a) => (
          <select {...a} name="priceType" value={priceType} onChange={(e) => setPriceType(e.target.value as CreateBody['priceType'])}>
            <option value="fixed">Fixed</option>
            <option value="from">From (the final price may be higher)</option>
            <option value="negotiable">Negotiable (no price shown)</option>
          </select>
        )}
      </Field>
      {priceType !== 'negotiable' && (
        <Field label={`Price (${currency})`} error={errors.get('price.amount') ?? errors.get('price')}>
          {(a) => <input {...a} name="price" type="number" min={0} step="any" defaultValue={s?.price?.amount} />}
        </Field>
      )}
      <Field label="Requests" error={errors.get('requestAcceptancePolicy')}>
        {(a) => (
          <select {...a} name="requestAcceptancePolicy" defaultValue={s?.requestAcceptancePolicy ?? 'automatic'}>
            <option value="automatic">Confirmed at once</option>
            <option value="manual">Accepted by the salon</option>
          </select>
        )}
      </Field>
      <label className="check">
        <input type="checkbox" name="onlineBookable" defaultChecked={s?.onlineBookable ?? true} /> Bookable online
      </label>
      <label className="check">
        <input type="checkbox" name="active" defaultChecked={s?.active ?? true} /> Active
      </label>
      {errors.get('active') && <span className="field-error">{errors.get('active')}</span>}
      <Field label="Buffer before (minutes)" error={errors.get('bufferBeforeMinutes')}>
        {(a) => <input {...a} name="bufferBeforeMinutes" type="number" min={0} defaultValue={s?.bufferBeforeMinutes ?? 0} />}
      </Field>
      <Field label="Buffer after (minutes)" error={errors.get('bufferAfterMinutes')}>
        {(a) => <input {...a} name="bufferAfterMinutes" type="number" min={0} defaultValue={s?.bufferAfterMinutes ?? 0} />}
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
