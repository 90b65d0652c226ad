import { toMajor } from '../money.ts';

/** The export's columns, in order (clients-and-reports.md "Reports"). */
export const CSV_COLUMNS = [
  'reference',
  'date',
  'start',
  'end',
  'service',
  'staff',
  'status',
  'source',
  'price',
  'currency',
  'client',
] as const;

export interface CsvBooking {
  reference: string;
  date: string;
  start: string;
  end: string;
  service: string;
  staff: string | null;
  status: string;
  source: string;
  priceType: string | null;
  priceMinor: number | null;
  priceCurrency: string | null;
  client: string;
}

/**
 * One booking as a CSV row: the price it was booked at in major units, empty when negotiable or
 * never recorded (a booking from before prices were kept), so a sum over the column is what was agreed.
 */
export function csvRow(b: CsvBooking, businessCurrency: string): string[] {
  const currency = b.priceCurrency ?? businessCurrency;
  const price = b.priceType === 'negotiable' || b.priceMinor === null ? '' : String(toMajor(b.priceMinor, currency));
  return [b.reference, b.date, b.start, b.end, b.service, b.staff ?? '', b.status, b.source, price, currency, b.client];
}
