import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { CursorPager } from '../../components/CursorPager.tsx';
import { Field } from '../../components/Field.tsx';
import { api, unwrap, type WaitlistEntry } from '../../lib/api.ts';
import { waitlistKeys } from '../../lib/query-keys.ts';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { waitlistWords } from './words.ts';

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
  const w = usePageWords(waitlistWords);
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
    document.title = w.docTitle;
  }, [w]);

  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = String(new FormData(e.currentTarget).get('status') ?? '');
    setParams(v ? new URLSearchParams({ status: v }) : new URLSearchParams());
  };

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{w.title}</h1>
      <form className="filters" onSubmit={apply} aria-label={w.filters}>
        <Field label={w.status} layout="inline">
          <select name="status" defaultValue={status ?? ''}>
            <option value="">{w.any}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {w.statuses[s]}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit">{w.apply}</button>
      </form>
      {list.isError && <p role="alert">{list.error.message}</p>}
      {list.isPending && <p className="loading">{w.loading}</p>}
      {list.data && list.data.waitlist.length === 0 && <p>{w.nobody(status !== undefined)}</p>}
      {list.data && list.data.waitlist.length > 0 && (
        <table className="list" aria-busy={list.isPlaceholderData}>
          <thead>
            <tr>
              <th scope="col">{w.guest}</th>
              <th scope="col">{w.contact}</th>
              <th scope="col">{w.service}</th>
              <th scope="col">{w.staff}</th>
              <th scope="col">{w.dates}</th>
              <th scope="col">{w.startBetween}</th>
              <th scope="col">{w.status}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.waitlist.map((e) => (
              <tr key={e.entryId}>
                <td data-label={w.guest}>{e.name}</td>
                <td data-label={w.contact}>
                  <a href={`tel:${e.phone}`}>{e.phone}</a>
                  <br />
                  <a href={`mailto:${e.email}`}>{e.email}</a>
                </td>
                <td data-label={w.service}>{e.serviceName}</td>
                <td data-label={w.staff}>{e.staffName ?? w.anyStaff}</td>
                <td data-label={w.dates}>
                  {e.dateRange.from === e.dateRange.to ? e.dateRange.from : `${e.dateRange.from} – ${e.dateRange.to}`}
                </td>
                <td data-label={w.startBetween}>{`${e.timeWindow.earliest} – ${e.timeWindow.latest}`}</td>
                <td data-label={w.status}>{w.statuses[e.status]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CursorPager next={list.data?.next} />
    </section>
  );
}
