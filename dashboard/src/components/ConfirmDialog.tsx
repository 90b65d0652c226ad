import './admin.css';
import type { ReactNode } from 'react';
import { Dialog } from './Dialog.tsx';
import { useT } from '../lib/i18n/index.ts';

/** A yes/no question in a modal dialog; the API's refusal is shown inside it. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  confirm: string;
  pending: boolean;
  error?: string | undefined;
  onConfirm: () => void;
  onClose: () => void;
  children?: ReactNode;
}) {
  const t = useT();
  return (
    <Dialog open={props.open} onClose={props.onClose} title={props.title}>
      <div className="form">
        {props.children}
        {props.error && (
          <p role="alert" className="error">
            {props.error}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" disabled={props.pending} onClick={props.onConfirm}>
            {props.confirm}
          </button>
          <button type="button" onClick={props.onClose}>
            {t.common.back}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
