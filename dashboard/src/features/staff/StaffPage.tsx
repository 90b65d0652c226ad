import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { DateRangeFields } from '../../components/DateRangeFields.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { Field, FieldGroup } from '../../components/Field.tsx';
import { EditButton, ListEditFrame } from '../../components/ListEditFrame.tsx';
import { LocationSwitcher } from '../../components/LocationSwitcher.tsx';
import { checked, RecordForm, text } from '../../components/RecordForm.tsx';
import { Tag } from '../../components/Tag.tsx';
import { api, type Location, unwrap } from '../../lib/api.ts';
import { formErrors } from '../../lib/form-errors.ts';
import { agendaKeys, catalogueKeys } from '../../lib/query-keys.ts';
import { addDays, todayIn } from '../../lib/time.ts';
import { useCanEdit, useLocationParam } from '../catalogue/location-param.tsx';
import { type Staff, useServices, useStaff } from '../catalogue/queries.ts';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { staffWords } from './words.ts';

type Hours = Staff['workingHours'][number];

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** Staff of one location, inactive ones included and marked; hours, services and time off. */
export function StaffPage() {
  const w = usePageWords(staffWords);
  const { slug = '' } = useParams();
  const canEdit = useCanEdit(slug);
  const { locations, all, location, select } = useLocationParam(slug);
  const staff = useStaff(slug, location?.slug);
  const services = useServices(slug, location?.slug);
  const serviceNames = new Map((services.data ?? []).map((s) => [s.id, s.name]));
  const [timeOffOf, setTimeOffOf] = useState<Staff | null>(null);

  if (locations.isPending) return <p className="loading">{w.loadingLocations}</p>;
  if (locations.isError) return <p role="alert">{locations.error.message}</p>;
  return (
    <ListEditFrame<Staff>
      title={w.title}
      newLabel={w.newStaff}
      canCreate={canEdit && location !== undefined}
      toolbar={location && <LocationSwitcher all={all} value={location.slug} onChange={select} />}
      intro={location ? <p>{w.hoursIn(location.timezone)}</p> : <p>{w.noLocation}</p>}
      list={location ? staff : undefined}
      loading={w.loading}
      empty={w.empty}
      editTitle={(s) => w.edit(s.name)}
      renderForm={(s, done) => location && <StaffForm slug={slug} all={all} location={location} staff={s} onDone={done} />}
      renderList={(rows, edit) => (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">{w.name}</th>
              <th scope="col">{w.services}</th>
              <th scope="col">{w.workingHours}</th>
              <th scope="col">{w.state}</th>
              <th scope="col">{w.actions}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.id} className={s.active ? undefined : 'row-inactive'}>
                <th scope="row">{s.name}</th>
                <td data-label={w.services}>{s.serviceIds.map((id) => serviceNames.get(id) ?? id).join(', ') || w.none}</td>
                <td data-label={w.workingHours}>{hoursText(w, s.workingHours)}</td>
                <td data-label={w.state}>{s.active ? w.active : <Tag warn>{w.inactive}</Tag>}</td>
                <td className="inline-actions">
                  {canEdit && <EditButton name={s.name} onClick={() => edit(s)} />}
                  <button type="button" onClick={() => setTimeOffOf(s)} aria-label={w.timeOffOf(s.name)}>
                    {w.timeOff}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    >
      {location && (
        <Dialog open={timeOffOf !== null} onClose={() => setTimeOffOf(null)} title={w.timeOffOf(timeOffOf?.name ?? '')}>
          {timeOffOf && <TimeOff staff={timeOffOf} location={location} canEdit={canEdit} onClose={() => setTimeOffOf(null)} />}
        </Dialog>
      )}
    </ListEditFrame>
  );
}

function hoursText(w: typeof staffWords.en, hours: Hours[]): string {
  if (hours.length === 0) return w.noHours;
  return w.weekdaysShort
    .map((day, i) => {
      const of = hours.filter((h) => h.weekday === i + 1).sort((a, b) => a.start.localeCompare(b.start));
      return of.length ? `${day} ${of.map((h) => `${h.start}–${h.end}`).join(', ')}` : null;
    })
    .filter(Boolean)
    .join('; ');
}

const STAFF_FIELDS = ['name', 'bio', 'locationSlug', 'serviceIds', 'workingHours', 'active', 'avatarUrl', 'position'] as const;

interface HoursRow extends Hours {
  key: number;
}

let rowKey = 0;

function StaffForm(props: { slug: string; all: Location[]; location: Location; staff: Staff | undefined; onDone: () => void }) {
  const { slug, all, staff, onDone } = props;
  const w = usePageWords(staffWords);
  const qc = useQueryClient();
  const [locationSlug, setLocationSlug] = useState(staff?.locationSlug ?? props.location.slug);
  const services = useServices(slug, locationSlug);
  const [serviceIds, setServiceIds] = useState<string[]>(staff?.serviceIds ?? []);
  const [hours, setHours] = useState<HoursRow[]>(() =>
    (staff?.workingHours ?? [])
      .map((h) => ({ ...h, key: ++rowKey }))
      .sort((a, b) => a.weekday - b.weekday || a.start.localeCompare(b.start)),
  );

  const save = useMutation({
    mutationFn: async (body: {
      name: string;
      bio: string;
      active: boolean;
      position: number | null;
      serviceIds: string[];
      workingHours: Hours[];
    }) => {
      const { bio, ...rest } = body;
      if (staff) {
        return unwrap(
          await api.PATCH('/admin/v1/staff/{staffId}', { params: { path: { staffId: staff.id } }, body: { ...rest, bio: bio || null } }),
        ).staff;
      }
      return unwrap(
        await api.POST('/admin/v1/businesses/{slug}/staff', {
          params: { path: { slug } },
          body: { ...rest, ...(bio ? { bio } : {}), locationSlug },
        }),
      ).staff;
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: catalogueKeys.staffAll(slug) });
      await qc.invalidateQueries({ queryKey: agendaKeys.business(slug) });
      onDone();
    },
  });
  const errors = formErrors(save.error, STAFF_FIELDS);
  const e = errors.fields;

  const submit = (d: FormData) =>
    save.mutate({
      name: text(d, 'name'),
      bio: text(d, 'bio'),
      active: checked(d, 'active'),
      position: text(d, 'position').trim() === '' ? null : Number(text(d, 'position')),
      serviceIds,
      workingHours: hours.map(({ weekday, start, end }) => ({ weekday, start, end })),
    });
  const setRow = (key: number, patch: Partial<Hours>) => setHours((rows) => rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  return (
    <RecordForm
      className="form dialog-scroll catalog-form"
      errors={errors}
      error={save.error}
      pending={save.isPending}
      submitLabel={staff ? w.save : w.create}
      onSubmit={submit}
      onCancel={onDone}
    >
      <Field label={w.name} error={e.name}>
        <input name="name" required maxLength={200} defaultValue={staff?.name ?? ''} />
      </Field>
      <Field label={w.bio} error={e.bio}>
        <textarea name="bio" rows={2} defaultValue={staff?.bio ?? ''} />
      </Field>
      <Field label={w.location} error={e.locationSlug}>
        <select
          name="locationSlug"
          value={locationSlug}
          disabled={staff !== undefined}
          onChange={(ev) => {
            setLocationSlug(ev.target.value);
            setServiceIds([]);
          }}
        >
          {all.map((l) => (
            <option key={l.slug} value={l.slug}>
              {l.name}
            </option>
          ))}
        </select>
      </Field>
      <FieldGroup legend={w.services} error={e.serviceIds}>
        {(services.data ?? []).length === 0 && <p>{w.noService}</p>}
        {(services.data ?? []).map((s) => (
          <Field key={s.id} layout="check" label={`${s.name}${s.active ? '' : w.inactiveSuffix}`}>
            <input
              type="checkbox"
              checked={serviceIds.includes(s.id)}
              onChange={(ev) => setServiceIds((ids) => (ev.target.checked ? [...ids, s.id] : ids.filter((x) => x !== s.id)))}
            />
          </Field>
        ))}
      </FieldGroup>
      <FieldGroup legend={w.workingHours} error={e.workingHours}>
        {w.weekdays.map((day, i) => {
          const weekday = i + 1;
          const rows = hours.filter((h) => h.weekday === weekday);
          return (
            <div key={day}>
              {rows.length === 0 && (
                <div className="hours-row">
                  <span>{day}</span>
                  <span>{w.dayOff}</span>
                  <span />
                  <span className="inline-actions">
                    <button
                      type="button"
                      onClick={() => setHours((r) => [...r, { weekday, start: '09:00', end: '17:00', key: ++rowKey }])}
                      aria-label={w.addHoursOn(day)}
                    >
                      {w.addHours}
                    </button>
                  </span>
                </div>
              )}
              {rows.map((r, n) => {
                const suffix = n === 0 ? '' : ` ${n + 1}`;
                return (
                  <div className="hours-row" key={r.key}>
                    <span>{n === 0 ? day : ''}</span>
                    <HoursTime
                      day={day}
                      label={`${w.start}${suffix}`}
                      value={r.start}
                      onChange={(start) => setRow(r.key, { start })}
                      invalid={Boolean(e.workingHours)}
                    />
                    <HoursTime
                      day={day}
                      label={`${w.end}${suffix}`}
                      value={r.end}
                      onChange={(end) => setRow(r.key, { end })}
                      invalid={Boolean(e.workingHours)}
                    />
                    <span className="inline-actions">
                      <button
                        type="button"
                        onClick={() => setHours((all) => all.filter((x) => x.key !== r.key))}
                        aria-label={w.removeHours(day, suffix)}
                      >
                        {w.remove}
                      </button>
                      {n === rows.length - 1 && (
                        <button
                          type="button"
                          onClick={() => setHours((all) => [...all, { weekday, start: r.end, end: r.end, key: ++rowKey }])}
                          aria-label={w.addHoursOn(day)}
                        >
                          {w.addHours}
                        </button>
                      )}
                    </span>
                  </div>
                );
              })}
            </div>
          );
        })}
      </FieldGroup>
      <Field label={w.position} error={e.position && w.positionError} hint={w.positionHint}>
        <input name="position" type="number" min={0} max={10000} step={1} inputMode="numeric" defaultValue={staff?.position ?? ''} />
      </Field>
      <Field label={w.active} layout="check" error={e.active}>
        <input name="active" type="checkbox" defaultChecked={staff?.active ?? true} />
      </Field>
    </RecordForm>
  );
}

/** Time off of one staff member: the list between two dates, add (local date and time), remove. */
function TimeOff(props: { staff: Staff; location: Location; canEdit: boolean; onClose: () => void }) {
  const { staff, location, canEdit, onClose } = props;
  const w = usePageWords(staffWords);
  const qc = useQueryClient();
  const zone = location.timezone;
  const today = todayIn(zone);
  const [range, setRange] = useState({ from: today, to: addDays(today, 90) });
  const [confirming, setConfirming] = useState<string | null>(null);
  const list = useQuery({
    queryKey: catalogueKeys.timeOff(staff.id, range.from, range.to),
    queryFn: async () =>
      unwrap(await api.GET('/admin/v1/staff/{staffId}/time-off', { params: { path: { staffId: staff.id }, query: range } })).timeOff,
  });
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: catalogueKeys.timeOffAll(staff.id) });
    await qc.invalidateQueries({ queryKey: agendaKeys.all });
  };
  const add = useMutation({
    mutationFn: async (body: { from: { date: string; time: string }; to: { date: string; time: string } }) =>
      unwrap(await api.POST('/admin/v1/staff/{staffId}/time-off', { params: { path: { staffId: staff.id } }, body })).timeOff,
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: async (timeOffId: string) => {
      unwrap(await api.DELETE('/admin/v1/time-off/{timeOffId}', { params: { path: { timeOffId } } }));
    },
    onSuccess: async () => {
      setConfirming(null);
      await refresh();
    },
  });
  const errors = formErrors(add.error, ['from.date', 'from.time', 'to.date', 'to.time', 'from', 'to']);
  const e = errors.fields;

  const show = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const d = new FormData(e.currentTarget);
    setRange({ from: text(d, 'from'), to: text(d, 'to') });
  };
  const submit = (d: FormData) =>
    add.mutate({
      from: { date: text(d, 'fromDate'), time: text(d, 'fromTime') },
      to: { date: text(d, 'toDate'), time: text(d, 'toTime') },
    });

  return (
    <div className="dialog-scroll catalog-form">
      <p>{w.timesIn(zone)}</p>
      <form className="filters" onSubmit={show} aria-label={w.timeOffBetween}>
        <DateRangeFields from={range.from} to={range.to} required />
        <button type="submit">{w.show}</button>
      </form>
      {list.isError && <p role="alert">{list.error.message}</p>}
      {list.data && list.data.length === 0 && <p>{w.noTimeOff}</p>}
      {list.data && list.data.length > 0 && (
        <table className="list" aria-label={w.timeOff}>
          <thead>
            <tr>
              <th scope="col">{w.from}</th>
              <th scope="col">{w.to}</th>
              {canEdit && <th scope="col">{w.actions}</th>}
            </tr>
          </thead>
          <tbody>
            {list.data.map((t) => {
              const label = `${t.from.date} ${t.from.time} – ${t.to.date} ${t.to.time}`;
              return (
                <tr key={t.id}>
                  <td data-label={w.from}>
                    {t.from.date} {t.from.time}
                  </td>
                  <td data-label={w.to}>
                    {t.to.date} {t.to.time}
                  </td>
                  {canEdit && (
                    <td className="inline-actions">
                      {confirming === t.id ? (
                        <>
                          <button
                            type="button"
                            onClick={() => remove.mutate(t.id)}
                            disabled={remove.isPending}
                            aria-label={w.confirmRemovalOf(label)}
                          >
                            {w.confirmRemoval}
                          </button>
                          <button type="button" onClick={() => setConfirming(null)}>
                            {w.keep}
                          </button>
                        </>
                      ) : (
                        <button type="button" onClick={() => setConfirming(t.id)} aria-label={w.removeLabel(label)}>
                          {w.remove}
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {remove.isError && (
        <p role="alert" className="error">
          {remove.error.message}
        </p>
      )}
      {canEdit && (
        <RecordForm
          aria-label={w.addTimeOff}
          errors={errors}
          error={add.error}
          pending={add.isPending}
          submitLabel={w.addTimeOff}
          onSubmit={submit}
          onCancel={onClose}
          cancelLabel={w.close}
        >
          <h3>{w.addTimeOff}</h3>
          <Field label={w.fromDate} error={e['from.date'] ?? e.from}>
            <input name="fromDate" type="date" required defaultValue={today} />
          </Field>
          <Field label={w.fromTime} error={e['from.time']}>
            <input name="fromTime" type="time" required defaultValue="00:00" />
          </Field>
          <Field label={w.toDate} error={e['to.date'] ?? e.to}>
            <input name="toDate" type="date" required defaultValue={addDays(today, 1)} />
          </Field>
          <Field label={w.toTime} error={e['to.time']}>
            <input name="toTime" type="time" required defaultValue="00:00" />
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

/** One HH:MM field of a working-hours row, its label naming the day for screen readers. */
function HoursTime(p: { day: string; label: string; value: string; onChange: (v: string) => void; invalid: boolean }) {
  const w = usePageWords(staffWords);
  return (
    <span>
      <Field
        layout="inline"
        label={
          <>
            <span className="sr-only">{p.day} </span>
            {p.label}{' '}
          </>
        }
      >
        <input
          type="text"
          inputMode="numeric"
          pattern="([01][0-9]|2[0-3]):[0-5][0-9]|24:00"
          placeholder={w.timePlaceholder}
          size={5}
          required
          value={p.value}
          onChange={(e) => p.onChange(e.target.value)}
          aria-invalid={p.invalid ? true : undefined}
        />
      </Field>
    </span>
  );
}
