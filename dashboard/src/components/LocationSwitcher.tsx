import type { Location } from '../lib/api.ts';
import { Field } from './Field.tsx';
import { useT } from '../lib/i18n/index.ts';

/** `Location`, when the business has several; the page keeps the choice in `?location=`. */
export function LocationSwitcher(props: { all: Location[]; value: string; onChange: (slug: string) => void }) {
  const t = useT();
  if (props.all.length < 2) return null;
  return (
    <div className="field-inline">
      <Field label={t.list.location} layout="inline">
        <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
          {props.all.map((l) => (
            <option key={l.slug} value={l.slug}>
              {l.name}
              {l.bookingEnabled ? '' : ` (${t.list.bookingDisabled})`}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}
