import { slotTime } from '../../lib/format.ts';
import { CursorPager } from '../../components/CursorPager.tsx';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, type BusinessBooking, unwrap } from '../../lib/api.ts';
import { STATUS_NAMES } from '../../lib/status.ts';
import { isDate } from '../../lib/time.ts';
import { bookingKeys } from '../../lib/query-keys.ts';
import { useLocations } from '../catalogue/queries.ts';
import { slotOf } from '../../lib/slot.ts';
import { Field } from '../../components/Field.tsx';
import { DateRangeFields } from '../../components/DateRangeFields.tsx';
import { errorWords } from '../../lib/form-errors.ts';
import { useT } from '../../lib/i18n/index.ts';

const STATUSES = Object.keys(STATUS_NAMES) as Array<BusinessBooking['status']>;
const PAGE = 25;

/**
 * Bookings: the operator list with the public API's filters (status, date range, location) and
 * cursor paging; filters and the page's cursor live in the URL.
 */
export function BookingsPage() {
  const { slug = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const locations = useLocations(slug);
  const status = STATUSES.find((s) => s === params.get('status'));
  const from = isDate(params.get('from')) ? params.get('from')! : undefined;
  const to = isDate(params.get('to')) ? params.get('to')! : undefined;
  const locationSlug = params.get('location') || undefined;
  const cursor = params.get('cursor') || undefined;

  const list = useQuery({
    queryKey: bookingKeys.list(slug, { status, from, to, locationSlug, cursor }),
    queryFn: async () => {
      const r = await api.GET('/admin/v1/businesses/{slug}/bookings', {
        params: {
          path: { slug },
          query: {
            limit: PAGE,
            ...(status ? { status } : {}),
            ...(from ? { from } : {}),
            ...(to ? { to } : {}),
            ...(locationSlug ? { locationSlug } : {}),
            ...(cursor ? { cursor } : {}),
          },
        },
      });
      return { bookings: unwrap(r).bookings, next: r.data?.meta.cursor };
    },
    placeholderData: keepPreviousData,
  });

  const t = useT();
  const l = t.list;
  useEffect(() => {
    document.title = `${t.nav.bookings} · ${t.signIn.heading}`;
  }, [t]);

  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const p = new URLSearchParams();
    for (const k of ['status', 'from', 'to', 'location']) {
      const v = String(f.get(k) ?? '');
      if (v) p.set(k, v);
    }
    setParams(p);
  };

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{t.nav.bookings}</h1>
      <form className="filters" onSubmit={apply} aria-label={l.filters}>
        <Field label={l.status} layout="inline">
          <select name="status" defaultValue={status ?? ''}>
            <option value="">{l.any}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_NAMES[s]}
              </option>
            ))}
          </select>
        </Field>
        <DateRangeFields from={from} to={to} />
        {(locations.data?.length ?? 0) > 1 && (
          <Field label={l.location} layout="inline">
            <select name="location" defaultValue={locationSlug ?? ''}>
              <option value="">{l.any}</option>
              {locations.data?.map((l) => (
                <option key={l.slug} value={l.slug}>
                  {l.name}
                </option>
              ))}
            </select>
          </Field>
        )}
        <button type="submit">{l.apply}</button>
      </form>
      {list.isError && <p role="alert">{errorWords(list.error)}</p>}
      {list.isPending && <p className="loading">{l.loadingBookings}</p>}
      {list.data && list.data.bookings.length === 0 && <p>{l.noBooking}</p>}
      {list.data && list.data.bookings.length > 0 && (
        <table className="list" aria-busy={list.isPlaceholderData}>
          <thead>
            <tr>
              <th scope="col">{l.reference}</th>
              <th scope="col">{t.bookingDetail.time}</th>
              <th scope="col">{t.bookingDetail.guest}</th>
              <th scope="col">{t.bookingDetail.service}</th>
              <th scope="col">{t.bookingDetail.staff}</th>
              <th scope="col">{l.status}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.bookings.map((b) => {
              const slot = slotOf(b);
              return (
                <tr key={b.bookingId}>
                  <td data-label={l.reference}>
                    <Link to={`/${slug}/bookings/${b.bookingId}`}>{b.publicReference}</Link>
                  </td>
                  <td data-label={t.bookingDetail.time}>{slot ? slotTime(slot.date, slot.startTime) : '—'}</td>
                  <td data-label={t.bookingDetail.guest}>{b.guest.name}</td>
                  <td data-label={t.bookingDetail.service}>{b.serviceName}</td>
                  <td data-label={t.bookingDetail.staff}>{b.staffName ?? '—'}</td>
                  <td data-label={l.status}>{STATUS_NAMES[b.status]}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <CursorPager next={list.data?.next} />
    </section>
  );
}
