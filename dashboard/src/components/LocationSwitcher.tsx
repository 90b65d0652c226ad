import type { Location } from '../lib/api.ts';
import { Field } from './Field.tsx';

/** `Location`, when the business has several; the page keeps the choice in `?location=`. */
export function LocationSwitcher(props: { all: Location[]; value: string; onChange: (slug: string) => void }) {
  if (props.all.length < 2) return null;
  return (
    <div className="field-inline">
      <Field label="Location" layout="inline">
        <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
          {props.all.map((l) => (
            <option key={l.slug} value={l.slug}>
              {l.name}
              {l.bookingEnabled ? '' : ' (booking disabled)'}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}
