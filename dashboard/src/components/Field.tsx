import { cloneElement, type ReactElement, type ReactNode, useId } from 'react';
import './forms.css';

interface ControlProps {
  id?: string;
  'aria-describedby'?: string | undefined;
  'aria-invalid'?: boolean | undefined;
}

/**
 * One form field: its label, its control (the one child: an input, select or textarea), an
 * optional hint and the API's message about it. The control gets the id the label names,
 * `aria-invalid` while there is a message, and `aria-describedby` pointing at the hint and the
 * message, so a screen reader reads them with the field.
 *
 * - `layout`: `stack` (label above), `check` (a checkbox, its label after it), `inline` (label and
 *   control as siblings of the surrounding row: filters, the working-hours rows).
 * - `announce`: the message is also an alert, led by the field's label (an alert is heard without
 *   the field around it). For short forms that do not move focus to the field they refuse; the
 *   long dialogs (RecordForm) move focus instead and do not announce.
 */
export function Field(props: {
  label: ReactNode;
  children: ReactElement<ControlProps>;
  error?: string | null | undefined;
  hint?: ReactNode;
  layout?: 'stack' | 'check' | 'inline';
  announce?: boolean;
  className?: string;
}) {
  const auto = useId();
  const own = props.children.props;
  const id = own.id ?? auto;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [own['aria-describedby'], props.hint ? hintId : undefined, props.error ? errorId : undefined]
    .filter(Boolean)
    .join(' ');
  const control = cloneElement(props.children, {
    id,
    'aria-describedby': describedBy || undefined,
    'aria-invalid': props.error ? true : own['aria-invalid'],
  });
  const label = <label htmlFor={id}>{props.label}</label>;
  const hint = props.hint ? (
    <span id={hintId} className="hint">
      {props.hint}
    </span>
  ) : null;
  const error = props.error ? (
    <span id={errorId} className="field-error" role={props.announce ? 'alert' : undefined}>
      {props.announce && <span className="sr-only">{props.label}: </span>}
      {props.error}
    </span>
  ) : null;
  const layout = props.layout ?? 'stack';
  if (layout === 'inline') {
    return (
      <>
        {label}
        {control}
        {hint}
        {error}
      </>
    );
  }
  return (
    <div className={props.className ? `field ${props.className}` : 'field'}>
      {layout === 'check' ? (
        <div className="check">
          {control}
          {label}
        </div>
      ) : (
        <>
          {label}
          {control}
        </>
      )}
      {hint}
      {error}
    </div>
  );
}

/** A group of controls under one legend (checkboxes, the working-hours rows) with the API's message about the group. */
export function FieldGroup(props: { legend: ReactNode; error?: string | null | undefined; announce?: boolean; children: ReactNode }) {
  const errorId = useId();
  return (
    <fieldset aria-describedby={props.error ? errorId : undefined}>
      <legend>{props.legend}</legend>
      {props.children}
      {props.error && (
        <span id={errorId} className="field-error" role={props.announce ? 'alert' : undefined}>
          {props.announce && <span className="sr-only">{props.legend}: </span>}
          {props.error}
        </span>
      )}
    </fieldset>
  );
}

/** The form-level message of a refused write (whatever no field shows), as an alert. */
export function FormAlert(props: { message: string | null | undefined; id?: string; children?: ReactNode }) {
  if (!props.message) return null;
  return (
    <p id={props.id} role="alert" className="error">
      {props.message}
      {props.children}
    </p>
  );
}
