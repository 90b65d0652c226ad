import './admin.css';
import { useId, useState } from 'react';
import { useT } from '../lib/i18n/index.ts';

/**
 * A secret the API shows once: selectable text, a `Copy` button (navigator.clipboard), and the
 * warning that it is never shown again. It lives only in the page's state: leaving the page, or
 * `Done`, forgets it.
 */
export function SecretOnce(props: { label: string; secret: string; onDone: () => void; note?: string }) {
  const id = useId();
  const c = useT().common;
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section className="notice secret-once" aria-labelledby={`${id}-label`}>
      <p id={`${id}-label`}>
        <strong>{props.label}</strong>
        {c.shownOnce}
      </p>
      {props.note && <p>{props.note}</p>}
      <p>
        <code className="secret" data-testid="secret">
          {props.secret}
        </code>
      </p>
      <div className="form-actions">
        <button type="button" onClick={copy}>
          {c.copy}
        </button>
        <button type="button" onClick={props.onDone}>
          {c.done}
        </button>
        <span role="status">{copied === 'yes' ? c.copied : copied === 'failed' ? c.copyFailed : ''}</span>
      </div>
    </section>
  );
}
