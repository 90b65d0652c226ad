import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { ReportPeriod } from '../../domain/reports/period.ts';
import { CSV_COLUMNS, csvRow } from '../../domain/reports/csv-row.ts';
import type { Db } from '../../store/db.ts';
import { exportPage } from '../../store/reports.ts';
import { reportScope } from './report.ts';

/** Rows read per statement: a year of a busy salon never sits in memory at once. */
export const CSV_PAGE_SIZE = 500;

/**
 * GET /admin/v1/businesses/{slug}/bookings.csv: the scope is checked before the answer starts (a
 * bad slug or location is still a JSON error), then the rows stream page by page (keyset on start, id).
 */
export async function bookingsCsv(
  db: Db,
  slug: string,
  locationSlug: string | undefined,
  period: ReportPeriod,
  pageSize = CSV_PAGE_SIZE,
): Promise<Readable> {
  const scope = await reportScope(db, slug, locationSlug, period);
  async function* rows(): AsyncGenerator<string[]> {
    let after: { startAt: Date; id: string } | null = null;
    for (;;) {
      const page = await exportPage(db, scope, after, pageSize);
      for (const b of page) yield csvRow(b, scope.currency);
      if (page.length < pageSize) return;
      const last = page[page.length - 1]!;
      after = { startAt: last.startAt, id: last.id };
    }
  }
  // RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted, quotes doubled.
  const csv = stringify({ header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows' });
  // pipeline, not pipe: a failed page destroys the CSV stream, so the answer breaks off instead of ending as if complete.
  pipeline(Readable.from(rows()), csv, () => {});
  return csv;
}
