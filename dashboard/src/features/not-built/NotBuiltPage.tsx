import { useEffect } from 'react';

/** A section of the navigation that has no page yet: says so plainly instead of pretending. */
export function NotBuiltPage({ title }: { title: string }) {
  useEffect(() => {
    document.title = `${title} · Bookings dashboard`;
  }, [title]);
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      <p className="notice">This page is not built yet. Its API routes exist under /admin/v1; the dashboard page follows.</p>
    </section>
  );
}
