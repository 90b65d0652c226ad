import { Field } from './Field.tsx';

/** `From` and `To` dates of a filter row (`from`, `to` in the form's data). */
export function DateRangeFields(props: { from: string | undefined; to: string | undefined; required?: boolean }) {
  return (
    <>
      <Field label="From" layout="inline">
        <input name="from" type="date" required={props.required} defaultValue={props.from} />
      </Field>
      <Field label="To" layout="inline">
        <input name="to" type="date" required={props.required} defaultValue={props.to} />
      </Field>
    </>
  );
}
