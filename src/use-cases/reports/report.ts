import { AppError } from '../../domain/errors.ts';
import type { ReportPeriod } from '../../domain/reports/period.ts';
import { buildReport, type Report } from '../../domain/reports/report.ts';
import { workingMinutes } from '../../domain/reports/working-minutes.ts';
import { DAY_MS } from '../../domain/time/calendar.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { findLocationBySlug } from '../../store/locations.ts';
import { loadReportStaff, type ReportScope, sumReportFigures } from '../../store/reports.ts';
import { readGuestSettings } from '../guest-settings.ts';
import { requireBusiness } from '../operator/businesses.ts';

/** The business and the location a report or an export reads; an unknown location is a 404. */
export async function reportScope(
  db: Queryable,
  slug: string,
  locationSlug: string | undefined,
  period: ReportPeriod,
): Promise<ReportScope & { currency: string }> {
  const business = await requireBusiness(db, slug);
  let locationId: string | null = null;
  if (locationSlug !== undefined) {
    const location = await findLocationBySlug(db, business.id, locationSlug);
    if (!location) throw new AppError('request.not_found', `No location "${locationSlug}".`);
    locationId = location.id;
  }
  return { businessId: business.id, locationId, from: period.from, to: period.to, currency: business.currency };
}

/**
 * For the report's transaction only: no JIT (PostgreSQL compiled a year's window with inlining and
 * optimisation for 1.5 s, three times what running it took), and memory enough to sort a year's
 * bookings by client without spilling to disk (docs/performance.md, "A year's report").
 */
const REPORT_SETTINGS = "SELECT set_config('jit', 'off', true), set_config('work_mem', '32MB', true)";

/**
 * GET /admin/v1/businesses/{slug}/reports: every figure summed in SQL, the working time per local day
 * here. The statements read one snapshot (a read-only REPEATABLE READ transaction), so a booking
 * changing meanwhile is counted the same way by every figure.
 */
export async function getReport(db: Db, slug: string, locationSlug: string | undefined, period: ReportPeriod): Promise<Report> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    await tx.query(REPORT_SETTINGS);
    const scope = await reportScope(tx, slug, locationSlug, period);
    const settings = await readGuestSettings(tx, scope.businessId);
    const { counts, pairs, lateCancelled, clients, rebooking } = await sumReportFigures(tx, scope, settings.guestCancel.noticeMinutes);
    const bookedStaff = [...new Set(pairs.flatMap((p) => (p.staffId === null ? [] : [p.staffId])))];
    // A day wider on each side than any zone's offset, so every local day's time off is loaded.
    const staff = await loadReportStaff(
      tx,
      scope,
      bookedStaff,
      new Date((period.fromDay - 1) * DAY_MS),
      new Date((period.toDay + 2) * DAY_MS),
    );
    return buildReport(period, scope.currency, {
      counts,
      pairs,
      staff: staff.map((s) => ({
        id: s.id,
        name: s.name,
        workingMinutes: workingMinutes(s.timezone, s.hours, s.timeOff, period.fromDay, period.toDay),
      })),
      lateCancelled,
      clients,
      rebooking,
    });
  });
}
