import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A modal dialog on the native <dialog> element: showModal() keeps focus inside and the rest of
 * the page inert, Escape closes, focus goes back to the opener. Named by its title.
 */
export function Dialog(props: { open: boolean; onClose: () => void; title: string; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      // React passes a nested dialog's close up its tree: only this dialog's own closing closes it
      onClose={(e) => e.target === e.currentTarget && props.onClose()}
      className="dialog"
    >
      {props.open && (
        <>
          <h2 id={titleId}>{props.title}</h2>
          {props.children}
        </>
      )}
    </dialog>
  );
}
