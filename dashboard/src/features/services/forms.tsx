/**
 * Pieces shared by the catalogue pages (Services, Staff, Locations): the member's write right,
 * the location switcher kept in `?location=` like the calendar's, and the API's validation issues
 * shown beside the field they name (`body.x` -> field `x`), anything else in a form-level alert.
 */
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, type RefObject, useEffect, useId } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError, api, type Location, unwrap } from '../../lib/api.ts';
import { useRole } from '../admin-common/role.ts';
import { useLocations } from '../calendar/queries.ts';
import './catalog.css';

/** Owners and managers keep the catalogue; the front desk reads it. */
export function useCanEdit(slug: string): boolean {
  const role = useRole(slug);
  return role === 'owner' || role === 'manager';
}

export function useBusiness(slug: string) {
  return useQuery({
    queryKey: ['business', slug],
    queryFn: async () => unwrap(await api.GET('/admin/v1/businesses/{slug}', { params: { path: { slug } } })).business,
    staleTime: 5 * 60_000,
  });
}

/** The location of the page, from `?location=` (as on the calendar), else the first bookable one. */
export function useLocationParam(slug: string) {
  const locations = useLocations(slug);
  const [params, setParams] = useSearchParams();
  const all = locations.data ?? [];
  const wanted = params.get('location');
  const location = all.find((l) => l.slug === wanted) ?? all.find((l) => l.bookingEnabled) ?? all[0];
  const select = (next: string) => {
    const p = new URLSearchParams(params);
    p.set('location', next);
    setParams(p);
  };
  return { locations, all, location, select };
}

export function LocationSwitcher(props: { all: Location[]; value: string; onChange: (slug: string) => void }) {
  const id = useId();
  if (props.all.length < 2) return null;
  return (
    <div className="field-inline">
      <label htmlFor={id}>Location</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.all.map((l) => (
          <option key={l.slug} value={l.slug}>
            {l.name}
            {l.bookingEnabled ? '' : ' (booking disabled)'}
          </option>
        ))}
      </select>
    </div>
  );
}

export interface FormErrors {
  /** the API's message per field name (`body.address.city` -> `address.city`) */
  fields: Record<string, string>;
  /** what no shown field names: the API's message */
  form: string | null;
}

/**
 * Splits an error of a write into messages beside fields and a form-level one. `known` are the
 * field names the form shows; an issue path is matched to the longest known prefix
 * (`workingHours.3.start` -> `workingHours`).
 */
export function formErrors(error: unknown, known: readonly string[]): FormErrors {
  if (!error) return { fields: {}, form: null };
  if (!(error instanceof ApiError)) return { fields: {}, form: String((error as Error).message ?? error) };
  const issues = (error.details as { issues?: { path?: string; message?: string }[] } | undefined)?.issues;
  if (error.code !== 'request.validation_failed' || !Array.isArray(issues) || issues.length === 0) {
    return { fields: {}, form: error.message };
  }
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const issue of issues) {
    const path = String(issue.path ?? '');
    const message = String(issue.message ?? 'is invalid');
    let name: string | undefined;
    if (path.startsWith('body.')) {
      const parts = path.slice(5).split('.');
      for (let n = parts.length; n > 0 && !name; n--) {
        const candidate = parts.slice(0, n).join('.');
        if (known.includes(candidate)) name = candidate;
      }
    }
    if (name) fields[name] = fields[name] ? `${fields[name]}; ${message}` : message;
    else rest.push(`${path} ${message}`.trim());
  }
  return { fields, form: rest.length > 0 ? `${error.message} ${rest.join('; ')}`.trim() : null };
}

/** ids and ARIA wiring of the fields of one form. */
export function useFields(errors: FormErrors) {
  const base = useId();
  const id = (name: string) => `${base}-${name.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
  const errorId = (name: string) => `${id(name)}-error`;
  return {
    id,
    /** props of the control named `name` */
    control: (name: string, describedBy?: string) => {
      const invalid = errors.fields[name] !== undefined;
      const ids = [describedBy, invalid ? errorId(name) : undefined].filter(Boolean).join(' ');
      return { id: id(name), 'aria-invalid': invalid || undefined, 'aria-describedby': ids || undefined };
    },
    /** the API's message for `name`, beside its control */
    error: (name: string): ReactNode =>
      errors.fields[name] !== undefined ? (
        <span id={errorId(name)} className="field-error">
          {errors.fields[name]}
        </span>
      ) : null,
  };
}

export function FormAlert({ errors }: { errors: FormErrors }) {
  if (!errors.form) return null;
  return (
    <p role="alert" className="error">
      {errors.form}
    </p>
  );
}

/** A word that marks a row (inactive, not online-bookable, booking disabled). */
export function Tag({ children, warn }: { children: ReactNode; warn?: boolean }) {
  return <span className={warn ? 'tag tag-warn' : 'tag'}>{children}</span>;
}

export const text = (f: FormData, name: string) => String(f.get(name) ?? '').trim();
export const int = (f: FormData, name: string) => {
  const v = text(f, name);
  return v === '' ? Number.NaN : Number(v);
};
export const checked = (f: FormData, name: string) => f.get(name) === 'on';

/** After a refusal, the first field the API named gets focus (else the form's alert is announced). */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, error: unknown) {
  useEffect(() => {
    if (!error) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [form, error]);
}
