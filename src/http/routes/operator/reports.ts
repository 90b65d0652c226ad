import { Type } from 'typebox';
import { reportPeriod } from '../../../domain/reports/period.ts';
import { bookingsCsv } from '../../../use-cases/reports/bookings-csv.ts';
import { getReport } from '../../../use-cases/reports/report.ts';
import type { App } from '../../context.ts';
import { ok } from '../../envelope.ts';
import { responseHeaders } from '../../openapi-parts.ts';
import { responses } from '../../schemas/common.ts';
import { Report, ReportQuery } from '../../schemas/report.ts';
import { OPERATOR_ERRORS, OPERATOR_SCHEMA, ROLES, operatorAccess } from './access.ts';

const SlugParams = Type.Object({ slug: Type.String({ maxLength: 100, description: 'The slug of the business.' }) });
const ERRORS = [...OPERATOR_ERRORS, 'request.not_found'] as const;

const reportExample = {
  from: '2031-06-01',
  to: '2031-06-30',
  currency: 'HUF',
  bookings: {
    total: 3,
    byStatus: { requested: 0, confirmed: 1, declined: 0, rescheduleProposed: 0, cancelled: 1, completed: 1, noShow: 0 },
    bySource: { api: 1, bookingPage: 1, manual: 1 },
  },
  revenue: {
    booked: 10000,
    completed: 5000,
    byStaff: [{ staffId: 'stf_1a2b3c4d5e6f7g8h9i0j', name: 'Anna', booked: 10000, completed: 5000 }],
    byService: [{ serviceId: 'svc_1a2b3c4d5e6f7g8h9i0j', name: 'Haircut', booked: 10000, completed: 5000 }],
  },
  utilisation: {
    overall: { bookedMinutes: 60, workingMinutes: 14400, ratio: 0.0042 },
    byStaff: [{ staffId: 'stf_1a2b3c4d5e6f7g8h9i0j', name: 'Anna', bookedMinutes: 60, workingMinutes: 14400, ratio: 0.0042 }],
  },
  noShowRate: 0,
  cancellationRate: 0.3333,
  lateCancellationRate: 0,
  clients: { new: 2, returning: 1 },
  rebookingRate: 1,
};

/** clients-and-reports.md "Reports": a period's figures and its bookings as CSV, for owners and managers. */
export async function reportRoutes(app: App): Promise<void> {
  app.get(
    '/businesses/:slug/reports',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorGetReport',
        summary: "A period's figures: bookings, revenue, utilisation, rates and clients",
        description:
          'The figures of the bookings whose start falls in `from`..`to` (location-local dates, both included, at most 366 days), at one location or all of them. Every rate and ratio is to 4 decimals, null when its divisor is 0; amounts are in major units of the business currency, at the price each booking was made at. docs/reports.md defines each figure.',
        params: SlugParams,
        querystring: ReportQuery,
        response: responses(200, Type.Object({ report: Report }), ERRORS, {
          description: 'The report.',
          example: { report: reportExample },
        }),
      },
    },
    async (request) => {
      const { from, to, locationSlug } = request.query;
      const period = reportPeriod(from, to);
      return ok(request, { report: await getReport(app.ctx.db, request.params.slug, locationSlug, period) });
    },
  );

  const csvResponses: Record<string, unknown> = responses(200, Type.Object({}), ERRORS, { description: 'unused', example: {} });
  csvResponses['200'] = Type.Unsafe({
    description:
      'The bookings, location by location and earliest start first, as RFC 4180 CSV in UTF-8 with a header row: reference, date, start, end, service, staff, status, source, price, currency, client. Date and times are local to the location; price is in major units, empty when negotiable; an erased client reads `Erased client`.',
    headers: {
      ...responseHeaders(200),
      'Content-Disposition': {
        type: 'string',
        description: 'attachment; filename="bookings-<slug>-<from>-<to>.csv"',
        examples: ['attachment; filename="bookings-studio-2031-06-01-2031-06-30.csv"'],
      },
    },
    content: {
      'text/csv': {
        schema: { type: 'string' },
        example:
          'reference,date,start,end,service,staff,status,source,price,currency,client\r\nBK-7Q2M-XK4P,2031-06-02,10:00,10:30,Haircut,Anna,completed,api,5000,HUF,Kiss Éva\r\n',
      },
    },
  });

  app.get(
    '/businesses/:slug/bookings.csv',
    {
      config: operatorAccess(ROLES.managers, 'slug'),
      schema: {
        ...OPERATOR_SCHEMA,
        operationId: 'operatorExportBookingsCsv',
        summary: "A period's bookings as a CSV file",
        description:
          'The bookings whose start falls in `from`..`to` (location-local dates, both included, at most 366 days), at one location or all of them, streamed as CSV. A bad query, business or location answers the JSON error envelope before any row is sent.',
        params: SlugParams,
        querystring: ReportQuery,
        response: csvResponses,
      },
    },
    async (request, reply) => {
      const { from, to, locationSlug } = request.query;
      const { slug } = request.params;
      const period = reportPeriod(from, to);
      const body = await bookingsCsv(app.ctx.db, slug, locationSlug, period);
      const filename = `bookings-${slug.replace(/[^A-Za-z0-9_-]/g, '')}-${from}-${to}.csv`;
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(body);
    },
  );
}
