import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { DateRangeFields } from '../../components/DateRangeFields.tsx';
import { Field } from '../../components/Field.tsx';
import { api, unwrap } from '../../lib/api.ts';
import { money, percent } from '../../lib/format.ts';
import { useT } from '../../lib/i18n/index.ts';
import { reportKeys } from '../../lib/query-keys.ts';
import { useLocations } from '../catalogue/queries.ts';
import { BarChart } from './BarChart.tsx';
import { usePageWords } from '../../lib/i18n/page-words.ts';
import { reportsWords } from './words.ts';

/** The first and last day of this month in the browser's calendar: the period shown before one is chosen. */
function thisMonth(): { from: string; to: string } {
  const now = new Date();
  const first = new Date(now.getFullYear(), now.getMonth(), 1);
  const last = new Date(now.getFullYear(), now.getMonth() + 1, 0);
  const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  return { from: iso(first), to: iso(last) };
}

/**
 * Reports (owners and managers, clients-and-reports.md "Reports"): the period's figures for one
 * location or all, a bar chart per staff member of utilisation and of revenue, each with its data
 * as a table too, and `Download CSV` of the period's bookings. The period lives in the URL.
 */
export function ReportsPage() {
  const { slug = '' } = useParams();
  const t = useT();
  const w = usePageWords(reportsWords);
  const [params, setParams] = useSearchParams();
  const month = thisMonth();
  const from = params.get('from') || month.from;
  const to = params.get('to') || month.to;
  const locationSlug = params.get('location') || undefined;
  const locations = useLocations(slug);
  const report = useQuery({
    queryKey: reportKeys.report(slug, { from, to, locationSlug }),
    queryFn: async () =>
      unwrap(
        await api.GET('/admin/v1/businesses/{slug}/reports', {
          params: { path: { slug }, query: { from, to, ...(locationSlug ? { locationSlug } : {}) } },
        }),
      ).report,
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    document.title = w.docTitle;
  }, [w.docTitle]);

  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const p = new URLSearchParams();
    for (const [k, name] of [
      ['from', 'from'],
      ['to', 'to'],
      ['location', 'location'],
    ] as const) {
      const v = String(f.get(name) ?? '');
      if (v) p.set(k, v);
    }
    setParams(p);
  };
  const csv = `/admin/v1/businesses/${encodeURIComponent(slug)}/bookings.csv?${new URLSearchParams({
    from,
    to,
    ...(locationSlug ? { locationSlug } : {}),
  })}`;
  const r = report.data;
  const pct = percent;

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{w.title}</h1>
      <form className="filters" onSubmit={apply} aria-label={t.list.filters}>
        <DateRangeFields from={from} to={to} required />
        {(locations.data?.length ?? 0) > 1 && (
          <Field label={t.list.location} layout="inline">
            <select name="location" defaultValue={locationSlug ?? ''}>
              <option value="">{w.allLocations}</option>
              {locations.data?.map((l) => (
                <option key={l.slug} value={l.slug}>
                  {l.name}
                </option>
              ))}
            </select>
          </Field>
        )}
        <button type="submit">{w.show}</button>
        <a className="button" href={csv} download>
          {w.downloadCsv}
        </a>
      </form>
      {report.isError && <p role="alert">{report.error.message}</p>}
      {report.isPending && <p className="loading">{w.loading}</p>}
      {r && (
        <div aria-busy={report.isPlaceholderData}>
          <dl className="facts">
            <dt>{w.bookings}</dt>
            <dd>{r.bookings.total}</dd>
            <dt>{w.revenueBooked}</dt>
            <dd>{money(r.revenue.booked, r.currency)}</dd>
            <dt>{w.revenueCompleted}</dt>
            <dd>{money(r.revenue.completed, r.currency)}</dd>
            <dt>{w.utilisation}</dt>
            <dd>{pct(r.utilisation.overall.ratio)}</dd>
            <dt>{w.noShowRate}</dt>
            <dd>{pct(r.noShowRate)}</dd>
            <dt>{w.cancellationRate}</dt>
            <dd>{pct(r.cancellationRate)}</dd>
            <dt>{w.lateCancellationRate}</dt>
            <dd>{pct(r.lateCancellationRate)}</dd>
            <dt>{w.newClients}</dt>
            <dd>{r.clients.new}</dd>
            <dt>{w.returningClients}</dt>
            <dd>{r.clients.returning}</dd>
            <dt>{w.rebookingRate}</dt>
            <dd>{pct(r.rebookingRate)}</dd>
          </dl>
          <h2>{w.byStatus}</h2>
          <table className="list">
            <thead>
              <tr>
                <th scope="col">{t.list.status}</th>
                <th scope="col">{w.bookings}</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(r.bookings.byStatus).map(([status, n]) => (
                <tr key={status}>
                  <td data-label={t.list.status}>{t.statuses[status as keyof typeof t.statuses] ?? status}</td>
                  <td data-label={w.bookings}>{n}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <BarChart
            title={w.utilisationByStaff}
            valueLabel={w.utilisation}
            rows={r.utilisation.byStaff.map((s) => ({ key: s.staffId, name: s.name, value: s.ratio ?? 0, shown: pct(s.ratio) }))}
            max={1}
          />
          <BarChart
            title={w.revenueByStaff}
            valueLabel={w.revenueBooked}
            rows={r.revenue.byStaff.map((s) => ({ key: s.staffId, name: s.name, value: s.booked, shown: money(s.booked, r.currency) }))}
          />
        </div>
      )}
    </section>
  );
}
