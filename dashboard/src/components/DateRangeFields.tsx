import { Field } from './Field.tsx';
import { useT } from '../lib/i18n/index.ts';

/** `From` and `To` dates of a filter row (`from`, `to` in the form's data). */
export function DateRangeFields(props: { from: string | undefined; to: string | undefined; required?: boolean }) {
  const t = useT();
  return (
    <>
      <Field label={t.list.from} layout="inline">
        <input name="from" type="date" required={props.required} defaultValue={props.from} />
      </Field>
      <Field label={t.list.to} layout="inline">
        <input name="to" type="date" required={props.required} defaultValue={props.to} />
      </Field>
    </>
  );
}
