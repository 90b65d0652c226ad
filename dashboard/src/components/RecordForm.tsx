import { type FormEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import type { FormErrors } from '../lib/form-errors.ts';
import { FormAlert } from './Field.tsx';
import { useT } from '../lib/i18n/index.ts';

/**
 * The form of a dialog that writes a record: its fields (children, each a `Field` fed from
 * `errors.fields`), the form-level alert, and the submit and cancel buttons. After a refusal the
 * first field the API named gets focus (its message is its description); otherwise the alert is
 * announced. `onSubmit` receives the form's data.
 */
export function RecordForm(props: {
  errors: FormErrors;
  /** the write's error: focus moves when it changes */
  error: unknown;
  pending: boolean;
  submitLabel: string;
  onSubmit: (data: FormData) => void;
  onCancel?: (() => void) | undefined;
  cancelLabel?: string;
  submitDisabled?: boolean;
  className?: string;
  /** false: the browser's own checks (required, type) run before the API's */
  noValidate?: boolean;
  'aria-label'?: string;
  /** messages of the page's own checks, shown with the API's */
  before?: ReactNode;
  /** after the form-level message, inside its alert (a way on: `Ask for a new link`) */
  alertExtra?: ReactNode;
  /** after the buttons, inside the form (a link such as `Forgot password?`) */
  footer?: ReactNode;
  children: ReactNode;
}) {
  const ref = useRef<HTMLFormElement>(null);
  const alertId = useId();
  const t = useT();
  useEffect(() => {
    if (!props.error) return;
    ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [props.error]);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    props.onSubmit(new FormData(e.currentTarget));
  };
  return (
    <form
      ref={ref}
      className={props.className ?? 'form'}
      onSubmit={submit}
      noValidate={props.noValidate ?? true}
      aria-label={props['aria-label']}
      aria-describedby={props.errors.form ? alertId : undefined}
    >
      {props.children}
      {props.before}
      <FormAlert id={alertId} message={props.errors.form}>
        {props.alertExtra}
      </FormAlert>
      <div className="form-actions">
        <button type="submit" disabled={props.pending || props.submitDisabled}>
          {props.submitLabel}
        </button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            {props.cancelLabel ?? t.common.cancel}
          </button>
        )}
      </div>
      {props.footer}
    </form>
  );
}

/** FormData's text, trimmed; a number field as a number (NaN when empty, which the API refuses by name); a checkbox. */
export const text = (f: FormData, name: string) => String(f.get(name) ?? '').trim();
export const int = (f: FormData, name: string) => {
  const v = text(f, name);
  return v === '' ? Number.NaN : Number(v);
};
export const checked = (f: FormData, name: string) => f.get(name) === 'on';
