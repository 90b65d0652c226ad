import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { useT } from '../lib/i18n/index.ts';

/**
 * What the router shows instead of a page that failed to render (a bug, an answer the page did
 * not expect): the failure in words and a way back, not a blank screen. Inside the shell the
 * navigation stays; the way back is the dashboard's start, which reads everything again.
 */
export function RouteError() {
  const error = useRouteError();
  const t = useT();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <section className="page route-error" aria-labelledby="route-error-title">
      <h1 id="route-error-title">{t.routeError.title}</h1>
      <p role="alert">{t.routeError.text(detail)}</p>
      <p>
        <Link to="/" reloadDocument>
          {t.routeError.back}
        </Link>
      </p>
    </section>
  );
}
