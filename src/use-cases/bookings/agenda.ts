import { type Agenda, AGENDA_STATUSES, buildAgenda, localDay } from '../../domain/bookings/agenda.ts';
import { AppError } from '../../domain/errors.ts';
import { listAgendaStaff, listBookingsOverlapping } from '../../store/agenda.ts';
import type { Db } from '../../store/db.ts';
import { findLocationBySlug } from '../../store/locations.ts';
import { requireBusiness } from '../operator/businesses.ts';
import { businessViews } from './business-view.ts';

/** GET /admin/v1/businesses/:slug/agenda: one location-local day, one column per staff member. */
export async function getAgenda(db: Db, businessSlug: string, locationSlug: string, date: string): Promise<Agenda> {
  const business = await requireBusiness(db, businessSlug);
  const location = await findLocationBySlug(db, business.id, locationSlug);
  if (!location) throw new AppError('request.not_found', `No location "${locationSlug}".`);
  const day = localDay(date, location.timezone, 'query.date');
  const records = await listBookingsOverlapping(db, location.id, AGENDA_STATUSES, day.from, day.to);
  // A deactivated staff member's bookings still happen: their column stays while they have any.
  const staffIds = [...new Set(records.map((b) => b.staffId).filter((id): id is string => id !== null))];
  const staff = await listAgendaStaff(db, location.id, staffIds, day.from, day.to);
  return buildAgenda(day, { slug: location.slug, timezone: location.timezone }, staff, await businessViews(db, records));
}
