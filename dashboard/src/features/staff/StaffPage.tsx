import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useParams } from 'react-router';
import { Dialog } from '../../components/Dialog.tsx';
import { Field, fieldErrors } from '../../components/Field.tsx';
import { api, unwrap } from '../../lib/api.ts';
import type { operations } from '../../lib/api-types.ts';
import { addDays, todayIn } from '../../lib/time.ts';
import { useSession } from '../auth/session.ts';
import { useLocations, useServices, useStaff } from '../calendar/queries.ts';

type CreateBody = operations['operatorCreateStaff']['requestBody']['content']['application/json'];
type Staff = NonNullable<ReturnType<typeof useStaff>['data']>[number];
type Hours = CreateBody['workingHours'];

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** "09:00-13:00, 13:30-17:00" for one weekday. */
function hoursText(hours: Hours, weekday: number): string {
  return hours
    .filter((h) => h.weekday === weekday)
    .map((h) => `${h.start}-${h.end}`)
    .join(', ');
}

/** The text of each weekday's field back to entries; malformed pieces go to the API as they are, for its message. */
function parseHours(texts: string[]): Hours {
  const out: Hours = [];
  texts.forEach((text, i) => {
    for (const piece of text.split(',')) {
      const t = piece.trim();
      if (!t) continue;
      const [start = '', end = ''] = t.split(/\s*[-–]\s*/);
      out.push({ weekday: i + 1, start, end });
    }
  });
  return out;
}

/**
 * Staff: every staff member, inactive ones included; owners and managers create and edit (name,
 * services performed, working hours per weekday, active) and add and remove time off, with the
 * API's message beside the field it names; the front desk reads.
 */
export function StaffPage() {
  const { slug = '' } = useParams();
  const { data: member } = useSession();
  const role = member?.memberships.find((m) => m.salonSlug === slug)?.role;
  const canWrite = role === 'owner' || role === 'manager';
  const staff = useStaff(slug, undefined, true);
  const services = useServices(slug, undefined, true);
  const locations = useLocations(slug);
  const [editing, setEditing] = useState<Staff | 'new' | undefined>();
  const [timeOff, setTimeOff] = useState<Staff | undefined>();
  const serviceName = new Map((services.data ?? []).map((s) => [s.id, s.name]));
  const locationName = new Map((locations.data ?? []).map((l) => [l.slug, l.name]));

  useEffect(() => {
    document.title = 'Staff · Bookings dashboard';
  }, []);

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="calendar-bar">
        <h1 id="page-title">Staff</h1>
        {canWrite && (
          <button type="button" onClick={() => setEditing('new')}>
            New staff member
          </button>
        )}
      </div>
      {staff.isPending && <p className="loading">Loading staff…</p>}
      {staff.isError && <p role="alert">{staff.error.message}</p>}
      {staff.data && (
        <table className="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Location</th>
              <th scope="col">Services</th>
              <th scope="col">Working hours</th>
              <th scope="col">State</th>
              {canWrite && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {staff.data.map((s) => (
              <tr key={s.id}>
                <th scope="row">{s.name}</th>
                <td>{locationName.get(s.locationSlug) ?? s.locationSlug}</td>
                <td>{s.serviceIds.map((id) => serviceName.get(id) ?? id).join(', ') || '—'}</td>
                <td>
                  {WEEKDAYS.map((d, i) => {
                    const t = hoursText(s.workingHours, i + 1);
                    return t ? (
                      <div key={d}>
                        {d.slice(0, 3)} {t}
                      </div>
                    ) : null;
                  })}
                </td>
                <td>{s.active ? 'active' : 'inactive'}</td>
                {canWrite && (
                  <td>
                    <div className="actions">
                      <button type="button" onClick={() => setEditing(s)}>
                        Edit
                      </button>
                      <button type="button" onClick={() => setTimeOff(s)}>
                        Time off
                      </button>
                    </div>
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
        title={editing === 'new' ? 'New staff member' : `Edit ${editing?.name ?? ''}`}
      >
        {editing !== undefined && (
          <StaffForm slug={slug} staff={editing === 'new' ? undefined : editing} onDone={() => setEditing(undefined)} />
        )}
      </Dialog>
      <Dialog open={timeOff !== undefined} onClose={() => setTimeOff(undefined)} title={`Time off of ${timeOff?.name ?? ''}`}>
        {timeOff && <TimeOffPanel slug={slug} staff={timeOff} onDone={() => setTimeOff(undefined)} />}
      </Dialog>
    </section>
  );
}

function StaffForm({ slug, staff, onDone }: { slug: string; staff: Staff | undefined; onDone: () => void }) {
  const qc = useQueryClient();
  const locations = useLocations(slug);
  const [locationSlug, setLocationSlug] = useState(staff?.locationSlug ?? '');
  const chosenLocation = locationSlug || locations.data?.[0]?.slug;
  const services = useServices(slug, chosenLocation);
  const [hoursIndex, setHoursIndex] = useState<number[]>([]);
  const save = useMutation({
    mutationFn: async (body: CreateBody) => {
      if (!staff) return unwrap(await api.POST('/admin/v1/businesses/{slug}/staff', { params: { path: { slug } }, body }));
      const { locationSlug: _fixed, ...patch } = body;
      return unwrap(await api.PATCH('/admin/v1/staff/{staffId}', { params: { path: { staffId: staff.id } }, body: patch }));
    },
    onSuccess: async () => {
      await Promise.all([qc.invalidateQueries({ queryKey: ['staff', slug] }), qc.invalidateQueries({ queryKey: ['agenda', slug] })]);
      onDone();
    },
  });
  const errors = fieldErrors(save.error);
  // A working-hours issue names an entry (workingHours.3.end): shown beside that entry's weekday.
  const dayError = (weekday: number): string | undefined => {
    for (const [path, message] of errors) {
      const m = /^workingHours\.(\d+)/.exec(path);
      if (m && hoursIndex[Number(m[1])] === weekday) return `${path.split('.').slice(2).join('.') || 'hours'} ${message}`;
    }
    return undefined;
  };
  const placed = [...errors.keys()].every((p) => /^(name|serviceIds|locationSlug|workingHours\.\d+)/.test(p));
  const unplaced = save.isError && (errors.size === 0 || !placed) ? save.error.message : undefined;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const workingHours = parseHours(WEEKDAYS.map((d) => String(f.get(`hours-${d}`) ?? '')));
    setHoursIndex(workingHours.map((h) => h.weekday));
    save.mutate({
      locationSlug: chosenLocation ?? '',
      name: String(f.get('name') ?? '').trim(),
      active: f.get('active') === 'on',
      serviceIds: f.getAll('serviceIds').map(String),
      workingHours,
    });
  };

  const s = staff;
  return (
    <form className="form" onSubmit={submit} noValidate>
      {!s && (
        <Field label="Location" error={errors.get('locationSlug')}>
          {(a) => (
            <select {...a} name="locationSlug" value={chosenLocation ?? ''} onChange={(e) => setLocationSlug(e.target.value)}>
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
      <fieldset className="checks">
        <legend>Services performed</legend>
        {(services.data ?? []).map((sv) => (
          <label key={sv.id}>
            <input type="checkbox" name="serviceIds" value={sv.id} defaultChecked={s?.serviceIds.includes(sv.id) ?? false} /> {sv.name}
            {sv.active ? '' : ' (inactive)'}
          </label>
        ))}
        {errors.get('serviceIds') && <span className="field-error">{errors.get('serviceIds')}</span>}
      </fieldset>
      <fieldset className="checks">
        <legend>Working hours (location time; e.g. 09:00-13:00, 13:30-17:00; empty: not working)</legend>
        {WEEKDAYS.map((d, i) => (
          <Field key={d} label={d} error={dayError(i + 1)}>
            {(a) => <input {...a} name={`hours-${d}`} defaultValue={s ? hoursText(s.workingHours, i + 1) : i < 5 ? '09:00-17:00' : ''} />}
          </Field>
        ))}
      </fieldset>
      <label className="check">
        <input type="checkbox" name="active" defaultChecked={s?.active ?? true} /> Active
      </label>
      {unplaced && (
        <p role="alert" className="error">
          {unplaced}
        </p>
      )}
      {errors.size > 0 && placed && (
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

/** The staff member's time off from today for 90 days (location-local), with add and remove. */
function TimeOffPanel({ slug, staff, onDone }: { slug: string; staff: Staff; onDone: () => void }) {
  const qc = useQueryClient();
  const id = useId();
  const locations = useLocations(slug);
  const zone = locations.data?.find((l) => l.slug === staff.locationSlug)?.timezone ?? 'UTC';
  const from = todayIn(zone);
  const to = addDays(from, 90);
  const list = useQuery({
    queryKey: ['time-off', staff.id, from],
    queryFn: async () =>
      unwrap(await api.GET('/admin/v1/staff/{staffId}/time-off', { params: { path: { staffId: staff.id }, query: { from, to } } })).timeOff,
  });
  const refresh = () =>
    Promise.all([qc.invalidateQueries({ queryKey: ['time-off', staff.id] }), qc.invalidateQueries({ queryKey: ['agenda', slug] })]);
  const add = useMutation({
    mutationFn: async (body: { from: { date: string; time: string }; to: { date: string; time: string } }) =>
      unwrap(await api.POST('/admin/v1/staff/{staffId}/time-off', { params: { path: { staffId: staff.id } }, body })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: async (timeOffId: string) =>
      unwrap(await api.DELETE('/admin/v1/time-off/{timeOffId}', { params: { path: { timeOffId } } })),
    onSuccess: refresh,
  });
  const errors = fieldErrors(add.error);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (n: string) => String(f.get(n) ?? '');
    add.mutate({ from: { date: text('fromDate'), time: text('fromTime') }, to: { date: text('toDate'), time: text('toTime') } });
  };
  return (
    <div className="form">
      <p className="hint">Times in {zone}, the location's time zone.</p>
      {list.isError && <p role="alert">{list.error.message}</p>}
      <ul className="time-off-list" aria-label="Time off">
        {list.data?.length === 0 && <li>No time off in the next 90 days.</li>}
        {list.data?.map((t) => (
          <li key={t.id}>
            {t.from.date} {t.from.time} – {t.to.date} {t.to.time}{' '}
            <button type="button" disabled={remove.isPending} onClick={() => remove.mutate(t.id)}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      {remove.isError && <p role="alert">{remove.error.message}</p>}
      <form onSubmit={submit} noValidate className="form">
        <h3 id={`${id}-add`}>Add time off</h3>
        <Field label="From date" error={errors.get('from.date') ?? errors.get('from')}>
          {(a) => <input {...a} name="fromDate" type="date" defaultValue={from} />}
        </Field>
        <Field label="From time" error={errors.get('from.time')}>
          {(a) => <input {...a} name="fromTime" type="time" defaultValue="09:00" />}
        </Field>
        <Field label="To date" error={errors.get('to.date') ?? errors.get('to')}>
          {(a) => <input {...a} name="toDate" type="date" defaultValue={from} />}
        </Field>
        <Field label="To time" error={errors.get('to.time')}>
          {(a) => <input {...a} name="toTime" type="time" defaultValue="17:00" />}
        </Field>
        {add.isError && errors.size === 0 && <p role="alert">{add.error.message}</p>}
        <div className="form-actions">
          <button type="submit" disabled={add.isPending}>
            Add time off
          </button>
          <button type="button" onClick={onDone}>
            Close
          </button>
        </div>
      </form>
    </div>
  );
}
