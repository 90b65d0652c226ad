import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { Field } from '../../components/Field.tsx';
import { EditButton, ListEditFrame } from '../../components/ListEditFrame.tsx';
import { LocationSwitcher } from '../../components/LocationSwitcher.tsx';
import { checked, int, RecordForm, text } from '../../components/RecordForm.tsx';
import { Tag } from '../../components/Tag.tsx';
import { api, type Location, unwrap } from '../../lib/api.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { catalogueKeys } from '../../lib/query-keys.ts';
import { useCanEdit, useLocationParam } from '../catalogue/location-param.tsx';
import { type Resource, useResources } from '../catalogue/queries.ts';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { resourcesWords } from './words.ts';

/** Resources of one location (chairs, wash basins): how many units each has; inactive ones marked. */
export function ResourcesPage() {
  const w = usePageWords(resourcesWords);
  const { slug = '' } = useParams();
  const canEdit = useCanEdit(slug);
  const { locations, all, location, select } = useLocationParam(slug);
  const resources = useResources(slug, location?.slug);

  if (locations.isPending) return <p className="loading">{w.loadingLocations}</p>;
  if (locations.isError) return <p role="alert">{locations.error.message}</p>;
  return (
    <ListEditFrame<Resource>
      title={w.title}
      newLabel={w.newResource}
      canCreate={canEdit && location !== undefined}
      toolbar={location && <LocationSwitcher all={all} value={location.slug} onChange={select} />}
      intro={location ? <p>{w.intro}</p> : <p>{w.noLocation}</p>}
      list={location ? resources : undefined}
      loading={w.loading}
      empty={w.empty}
      editTitle={(r) => w.edit(r.name)}
      renderForm={(r, done) => location && <ResourceForm slug={slug} location={location} resource={r} onDone={done} />}
      renderList={(rows, edit) => (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{w.name}</th>
              <th scope="col">{w.quantity}</th>
              <th scope="col">{w.state}</th>
              <th scope="col">{w.actions}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} className={r.active ? undefined : 'row-inactive'}>
                <th scope="row">{r.name}</th>
                <td data-label={w.quantity}>{r.quantity}</td>
                <td data-label={w.state}>{r.active ? w.active : <Tag warn>{w.inactive}</Tag>}</td>
                <td className="inline-actions">{canEdit && <EditButton name={r.name} onClick={() => edit(r)} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    />
  );
}

const RESOURCE_FIELDS = ['name', 'quantity', 'active', 'locationSlug'] as const;

function ResourceForm(props: { slug: string; location: Location; resource: Resource | undefined; onDone: () => void }) {
  const { slug, location, resource, onDone } = props;
  const w = usePageWords(resourcesWords);
  const qc = useQueryClient();
  const save = useMutation({
    // A new resource starts active (the create takes no `active`), so only an edit sends it.
    mutationFn: async (body: { name: string; quantity: number; active: boolean }) => {
      if (resource) {
        return unwrap(await api.PATCH('/admin/v1/resources/{resourceId}', { params: { path: { resourceId: resource.id } }, body }))
          .resource;
      }
      const { active: _startsActive, ...create } = body;
      return unwrap(
        await api.POST('/admin/v1/businesses/{slug}/resources', {
          params: { path: { slug } },
          body: { ...create, locationSlug: location.slug },
        }),
      ).resource;
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: catalogueKeys.resourcesAll(slug) });
      onDone();
    },
  });
  const errors = formErrors(save.error, RESOURCE_FIELDS);
  const e = errors.fields;

  const submit = (d: FormData) => save.mutate({ name: text(d, 'name'), quantity: int(d, 'quantity'), active: checked(d, 'active') });

  return (
    <RecordForm
      className="form dialog-scroll catalog-form"
      errors={errors}
      error={save.error}
      pending={save.isPending}
      submitLabel={resource ? w.save : w.create}
      onSubmit={submit}
      onCancel={onDone}
    >
      <p>
        {w.location} <strong>{location.name}</strong>
      </p>
      <Field label={w.name} error={e.name}>
        <input name="name" required maxLength={200} defaultValue={resource?.name ?? ''} />
      </Field>
      <Field label={w.quantity} hint={w.quantityHint} error={e.quantity}>
        <input name="quantity" type="number" min={1} max={50} step={1} required defaultValue={resource?.quantity ?? 1} />
      </Field>
      {resource && (
        <Field label={w.active} layout="check" hint={w.activeHint} error={e.active}>
          <input name="active" type="checkbox" defaultChecked={resource.active} />
        </Field>
      )}
    </RecordForm>
  );
}
