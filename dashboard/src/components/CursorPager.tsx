import { useSearchParams } from 'react-router';

/**
 * `Previous page` / `Next page` over the API's cursor paging, with the cursor kept in the URL's
 * `cursor` parameter beside the page's filters: the previous page is the browser's previous entry.
 */
export function CursorPager({ next }: { next: string | undefined }) {
  const [params, setParams] = useSearchParams();
  return (
    <div className="actions">
      {params.get('cursor') && (
        <button type="button" onClick={() => window.history.back()}>
          Previous page
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
          Next page
        </button>
      )}
    </div>
  );
}
