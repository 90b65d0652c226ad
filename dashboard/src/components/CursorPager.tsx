import { useSearchParams } from 'react-router';
import { useT } from '../lib/i18n/index.ts';

/**
 * `Previous page` / `Next page` over the API's cursor paging, with the cursor kept in the URL's
 * `cursor` parameter beside the page's filters: the previous page is the browser's previous entry.
 */
export function CursorPager({ next }: { next: string | undefined }) {
  const [params, setParams] = useSearchParams();
  const t = useT();
  return (
    <div className="actions">
      {params.get('cursor') && (
        <button type="button" onClick={() => window.history.back()}>
          {t.list.previous}
        </button>
      )}
      {next && (
        <button
          type="button"
          onClick={() => {
            const p = new URLSearchParams(params);
            p.set('cursor', next);
            setParams(p);
          }}
        >
          {t.list.next}
        </button>
      )}
    </div>
  );
}
