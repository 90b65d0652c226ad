import { type ReactNode, useEffect, useState } from 'react';
import { Dialog } from './Dialog.tsx';
import { useT } from '../lib/i18n/index.ts';
import './forms.css';

/** Which record a page's edit dialog is open for: a record, `new`, or none. */
export function useEditing<T extends object>() {
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  return { editing, openNew: () => setEditing('new'), openEdit: (r: T) => setEditing(r), close: () => setEditing(null) };
}

/** The dialog of one record: `newTitle` for a new one, `editTitle(record)` (`Edit {name}`) for an existing one. */
export function EditDialog<T extends object>(props: {
  editing: T | 'new' | null;
  onClose: () => void;
  newTitle: string;
  editTitle?: (record: T) => string;
  children: (record: T | undefined) => ReactNode;
}) {
  const { editing } = props;
  const title = editing === null || editing === 'new' || !props.editTitle ? props.newTitle : props.editTitle(editing);
  return (
    <Dialog open={editing !== null} onClose={props.onClose} title={title}>
      {editing !== null && props.children(editing === 'new' ? undefined : editing)}
    </Dialog>
  );
}

/** `Edit`, named `Edit {name}` so each row's button is found by the record it edits. */
export function EditButton(props: { name: string; onClick: () => void }) {
  return (
    <button type="button" onClick={props.onClick} aria-label={`Edit ${props.name}`}>
      Edit
    </button>
  );
}

interface ListState<T> {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  data: T[] | undefined;
}

/**
 * A page of records: the title, a toolbar (a switcher), `New X` for who may write, the list with
 * its loading, error and empty states, and the `New X` / `Edit {name}` dialog around the page's
 * form (a RecordForm, whose fields show the API's messages). `list` undefined: nothing to list
 * yet (the page's `intro` says why). `children`: the page's further dialogs.
 */
export function ListEditFrame<T extends object>(props: {
  title: string;
  newLabel: string;
  canCreate: boolean;
  toolbar?: ReactNode;
  intro?: ReactNode;
  list: ListState<T> | undefined;
  loading: string;
  empty: ReactNode;
  renderList: (rows: T[], edit: (record: T) => void) => ReactNode;
  editTitle: (record: T) => string;
  renderForm: (record: T | undefined, done: () => void) => ReactNode;
  children?: ReactNode;
}) {
  const { editing, openNew, openEdit, close } = useEditing<T>();
  const { list, title } = props;
  const docTitle = useT().common.docTitle;
  useEffect(() => {
    document.title = docTitle(title);
  }, [title, docTitle]);
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="catalog-bar">
        <h1 id="page-title">{title}</h1>
        {props.toolbar}
        {props.canCreate && (
          <button type="button" onClick={openNew}>
            {props.newLabel}
          </button>
        )}
      </div>
      {props.intro}
      {list?.isPending && <p className="loading">{props.loading}</p>}
      {list?.isError && <p role="alert">{list.error?.message}</p>}
      {list?.data && list.data.length === 0 && <p>{props.empty}</p>}
      {list?.data && list.data.length > 0 && props.renderList(list.data, openEdit)}
      <EditDialog editing={editing} onClose={close} newTitle={props.newLabel} editTitle={props.editTitle}>
        {(record) => props.renderForm(record, close)}
      </EditDialog>
      {props.children}
    </section>
  );
}
