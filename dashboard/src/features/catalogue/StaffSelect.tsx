import { Field } from '../../components/Field.tsx';
import type { Staff } from './queries.ts';
import { useT } from '../../lib/i18n/index.ts';

/** `Staff`: a choice among the staff members who perform the service (new booking, a new time, a session). */
export function StaffSelect(props: {
  staff: Staff[];
  error?: string | undefined;
  required?: boolean;
  defaultValue?: string;
  /** a second part of a visit: `Staff 2`, field `staffId-2` */
  label?: string;
  name?: string;
}) {
  const t = useT();
  return (
    <Field label={props.label ?? t.newBooking.staff} error={props.error}>
      <select name={props.name ?? 'staffId'} required={props.required} defaultValue={props.defaultValue}>
        {props.staff.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
    </Field>
  );
}
