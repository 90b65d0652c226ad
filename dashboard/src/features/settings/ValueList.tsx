import { type InputHTMLAttributes, useEffect, useId, useRef, useState } from 'react';
import { Field, FieldGroup } from '../../components/Field.tsx';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { settingsWords } from './words.ts';

/**
 * A short list edited in place (reminders, embedding websites): one field per item with its own
 * `Remove`, and `Add` while there is room. Focus follows the keyboard user: into the new field
 * after `Add`, to a neighbour (or `Add`) after `Remove`.
 */
export function ValueList(props: {
  legend: string;
  /** `Reminder 2` */
  itemLabel: (index: number) => string;
  /** `Remove reminder 2` */
  removeLabel: (index: number) => string;
  addLabel: string;
  max: number;
  values: string[];
  onChange: (values: string[]) => void;
  /** the message beside item `index`, if any */
  itemError: (index: number) => string | undefined;
  error?: string | undefined;
  empty: string;
  hint?: string;
  itemHint?: (value: string) => string;
  input: InputHTMLAttributes<HTMLInputElement>;
}) {
  const base = useId();
  const w = usePageWords(settingsWords);
  const addRef = useRef<HTMLButtonElement>(null);
  const [focus, setFocus] = useState<number | 'add' | null>(null);
  useEffect(() => {
    if (focus === null) return;
    if (focus === 'add') addRef.current?.focus();
    else document.getElementById(`${base}-${focus}`)?.focus();
    setFocus(null);
  }, [focus, base]);

  const { values, onChange } = props;
  const add = () => {
    onChange([...values, '']);
    setFocus(values.length);
  };
  const remove = (i: number) => {
    const next = values.filter((_, j) => j !== i);
    onChange(next);
    setFocus(next.length === 0 ? 'add' : Math.min(i, next.length - 1));
  };
  // With the list full, `Add` is gone: focus after a removal may go back to it.
  const full = values.length >= props.max;

  return (
    <FieldGroup legend={props.legend} error={props.error}>
      {props.hint && <p className="hint">{props.hint}</p>}
      {values.length === 0 && <p className="muted">{props.empty}</p>}
      <ul className="value-list">
        {values.map((value, i) => (
          // Rows are positions in the list (`Reminder 2`): the index is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={i} className="value-row">
            <Field label={props.itemLabel(i)} error={props.itemError(i)} hint={props.itemHint?.(value) || undefined}>
              <input
                {...props.input}
                id={`${base}-${i}`}
                value={value}
                onChange={(e) => onChange(values.map((v, j) => (j === i ? e.target.value : v)))}
              />
            </Field>
            <button type="button" onClick={() => remove(i)}>
              {props.removeLabel(i)}
            </button>
          </li>
        ))}
      </ul>
      {!full && (
        <button type="button" ref={addRef} onClick={add}>
          {props.addLabel}
        </button>
      )}
      {full && <p className="hint">{w.atMost(props.max)}</p>}
    </FieldGroup>
  );
}
