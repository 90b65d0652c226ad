import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { CSV_COLUMNS, csvRow } from '../../domain/reports/csv-row.ts';
import type { ReportPeriod } from '../../domain/reports/period.ts';
import { DAY_MS } from '../../domain/time/calendar.ts';
import type { Db } from '../../store/db.ts';
import { listLocations } from '../../store/locations.ts';
import { type ExportRow, exportPage } from '../../store/reports.ts';
import { reportScope } from './report.ts';

/** Rows read per statement: a year of a busy salon never sits in memory at once. */
export const CSV_PAGE_SIZE = 500;

/**
 * GET /admin/v1/businesses/{slug}/bookings.csv: the scope is checked before the answer starts (a
 * bad slug or location is still a JSON error), then the rows stream page by page, location by
 * location (by slug), each earliest start first (keyset on start, id).
 */
export async function bookingsCsv(
  db: Db,
  slug: string,
  locationSlug: string | undefined,
  period: ReportPeriod,
  pageSize = CSV_PAGE_SIZE,
): Promise<Readable> {
  const scope = await reportScope(db, slug, locationSlug, period);
  const locationIds = scope.locationId !== null ? [scope.locationId] : (await listLocations(db, scope.businessId)).map((l) => l.id);
  // A day wider on each side than any zone's offset; the local dates decide which rows belong.
  const startFrom = new Date((period.fromDay - 1) * DAY_MS);
  const startTo = new Date((period.toDay + 2) * DAY_MS);
  async function* rows(): AsyncGenerator<string[]> {
    for (const locationId of locationIds) {
      const where = { locationId, from: period.from, to: period.to, startFrom, startTo };
      let after = startFrom;
      let inclusive = true;
      for (;;) {
        const page = await exportPage(db, where, after, inclusive, pageSize);
        if (page.length < pageSize) {
          yield* inOrder(page, scope.currency);
          break;
        }
        // The last start of a full page may go on in the next one: it is read again there, whole.
        const last = page[page.length - 1]!.startAt;
        const whole = page.filter((b) => b.startAt.getTime() < last.getTime());
        if (whole.length > 0) {
          yield* inOrder(whole, scope.currency);
          after = last;
          inclusive = true;
        } else {
          // A whole page of one start: that start alone, however many it holds.
          const at = { ...where, startTo: new Date(last.getTime() + 1) };
          yield* inOrder(await exportPage(db, at, last, true, 2 ** 31 - 1), scope.currency);
          after = last;
          inclusive = false;
        }
      }
    }
  }
  // RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted, quotes doubled.
  const csv = stringify({ header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows' });
  // pipeline, not pipe: a failed page destroys the CSV stream, so the answer breaks off instead of ending as if complete.
  pipeline(Readable.from(rows()), csv, () => {});
  return csv;
}

/** Bookings of one start by id, so the export's order never depends on the database's. */
function inOrder(rows: ExportRow[], currency: string): string[][] {
  return [...rows]
    .sort((a, b) => a.startAt.getTime() - b.startAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((b) => csvRow(b, currency));
}
