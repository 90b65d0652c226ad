import { type ReactNode, useId } from 'react';
import { ApiError } from '../lib/api.ts';

/** The API's validation issues by field: `body.address.city` → `address.city`. */
export function fieldErrors(err: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!(err instanceof ApiError)) return out;
  const issues = (err.details as { issues?: Array<{ path?: string; message?: string }> } | undefined)?.issues ?? [];
  for (const i of issues) if (i.path && i.message) out.set(i.path.replace(/^body\./, ''), i.message);
  return out;
}

/**
 * A labelled control with the API's message for it beside it (linked by aria-describedby and
 * marked aria-invalid). `children` receives the id and the ARIA attributes to put on the control.
 */
export function Field(props: {
  label: string;
  error: string | undefined;
  hint?: string;
  children: (a: { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined }) => ReactNode;
}) {
  const id = useId();
  const described = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.children({ id, 'aria-invalid': props.error !== undefined, 'aria-describedby': described })}
      {props.hint && (
        <span id={`${id}-hint`} className="hint">
          {props.hint}
        </span>
      )}
      {props.error && (
        <span id={`${id}-error`} className="field-error">
          {props.error}
        </span>
      )}
    </div>
  );
}
