import { AppError } from '../../domain/errors.ts';
import type { ReportPeriod } from '../../domain/reports/period.ts';
import { buildReport, type Report } from '../../domain/reports/report.ts';
import { workingMinutes } from '../../domain/reports/working-minutes.ts';
import { DAY_MS } from '../../domain/time/calendar.ts';
import type { Db } from '../../store/db.ts';
import { findLocationBySlug } from '../../store/locations.ts';
import {
  countByStatusAndSource,
  countClients,
  countLateCancellations,
  countRebookings,
  loadReportStaff,
  type ReportScope,
  sumByStaffAndService,
} from '../../store/reports.ts';
import { readGuestSettings } from '../guest-settings.ts';
import { requireBusiness } from '../operator/businesses.ts';

/** The business and the location a report or an export reads; an unknown location is a 404. */
export async function reportScope(
  db: Db,
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

/** GET /admin/v1/businesses/{slug}/reports: every figure summed in SQL, the working time per local day here. */
export async function getReport(db: Db, slug: string, locationSlug: string | undefined, period: ReportPeriod): Promise<Report> {
  const scope = await reportScope(db, slug, locationSlug, period);
  const settings = await readGuestSettings(db, scope.businessId);
  const counts = await countByStatusAndSource(db, scope);
  const pairs = await sumByStaffAndService(db, scope);
  const lateCancelled = await countLateCancellations(db, scope, settings.guestCancel.noticeMinutes);
  const clients = await countClients(db, scope);
  const rebooking = await countRebookings(db, scope);
  const bookedStaff = [...new Set(pairs.flatMap((p) => (p.staffId === null ? [] : [p.staffId])))];
  // A day wider on each side than any zone's offset, so every local day's time off is loaded.
  const staff = await loadReportStaff(
    db,
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
}
