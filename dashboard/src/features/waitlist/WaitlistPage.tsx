import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { CursorPager } from '../../components/CursorPager.tsx';
import { Field } from '../../components/Field.tsx';
import { api, unwrap, type WaitlistEntry } from '../../lib/api.ts';
import { waitlistKeys } from '../../lib/query-keys.ts';

/** The entry statuses in words a receptionist reads (docs/waitlist.md). */
const WAITLIST_STATUS_NAMES: Record<WaitlistEntry['status'], string> = {
  waiting: 'waiting',
  offered: 'offered a time',
  booked: 'booked',
  withdrawn: 'withdrawn',
  expired: 'expired',
};
const STATUSES = Object.keys(WAITLIST_STATUS_NAMES) as Array<WaitlistEntry['status']>;
const PAGE = 25;

/**
 * Waitlist: the guests waiting for a freed time, newest first, with their status, service, staff,
 * dates and time window; the contact in full so the front desk can call them. Filter and cursor
 * live in the URL, as on Bookings.
 */
export function WaitlistPage() {
  const { slug = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const status = STATUSES.find((s) => s === params.get('status'));
  const cursor = params.get('cursor') || undefined;

  const list = useQuery({
    queryKey: waitlistKeys.list(slug, { status, cursor }),
    queryFn: async () => {
      const r = await api.GET('/admin/v1/businesses/{slug}/waitlist', {
        params: { path: { slug }, query: { limit: PAGE, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) } },
      });
      return { waitlist: unwrap(r).waitlist, next: r.data?.meta.cursor };
    },
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    document.title = 'Waitlist · Bookings dashboard';
  }, []);

  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = String(new FormData(e.currentTarget).get('status') ?? '');
    setParams(v ? new URLSearchParams({ status: v }) : new URLSearchParams());
  };

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Waitlist</h1>
      <form className="filters" onSubmit={apply} aria-label="Filters">
        <Field label="Status" layout="inline">
          <select name="status" defaultValue={status ?? ''}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {WAITLIST_STATUS_NAMES[s]}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit">Apply filters</button>
      </form>
      {list.isError && <p role="alert">{list.error.message}</p>}
      {list.isPending && <p className="loading">Loading the waitlist…</p>}
      {list.data && list.data.waitlist.length === 0 && <p>Nobody is on the waitlist{status ? ' with this status' : ''}.</p>}
      {list.data && list.data.waitlist.length > 0 && (
        <table className="list" aria-busy={list.isPlaceholderData}>
          <thead>
            <tr>
              <th scope="col">Guest</th>
              <th scope="col">Contact</th>
              <th scope="col">Service</th>
              <th scope="col">Staff</th>
              <th scope="col">Dates</th>
              <th scope="col">Start between</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {list.data.waitlist.map((e) => (
              <tr key={e.entryId}>
                <td data-label="Guest">{e.name}</td>
                <td data-label="Contact">
                  <a href={`tel:${e.phone}`}>{e.phone}</a>
                  <br />
                  <a href={`mailto:${e.email}`}>{e.email}</a>
                </td>
                <td data-label="Service">{e.serviceName}</td>
                <td data-label="Staff">{e.staffName ?? 'Any staff'}</td>
                <td data-label="Dates">
                  {e.dateRange.from === e.dateRange.to ? e.dateRange.from : `${e.dateRange.from} – ${e.dateRange.to}`}
                </td>
                <td data-label="Start between">{`${e.timeWindow.earliest} – ${e.timeWindow.latest}`}</td>
                <td data-label="Status">{WAITLIST_STATUS_NAMES[e.status]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CursorPager next={list.data?.next} />
    </section>
  );
}
