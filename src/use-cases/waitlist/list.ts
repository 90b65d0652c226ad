import type { WaitlistEntry, WaitlistStatus } from '../../domain/waitlist/entry.ts';
import { keysetPage, type Page } from '../../domain/keyset-page.ts';
import type { Db } from '../../store/db.ts';
import { listEntries } from '../../store/waitlist.ts';
import { requireBusiness } from '../operator/businesses.ts';

export interface WaitlistEntryView {
  entryId: string;
  status: WaitlistStatus;
  locationId: string;
  serviceId: string;
  serviceName: string;
  staffId: string | null;
  /** null: any staff member */
  staffName: string | null;
  name: string;
  phone: string;
  email: string;
  lang: string;
  dateRange: { from: string; to: string };
  timeWindow: { earliest: string; latest: string };
  bookingId: string | null;
  createdAt: string;
}

/**
 * GET /admin/v1/businesses/{slug}/waitlist: the business's entries, newest first. The contact
 * details are shown in full (the front desk calls these guests; it is the business's own client
 * data) and never logged.
 */
export async function listWaitlist(
  db: Db,
  a: { slug: string; secret: Buffer; status?: WaitlistStatus | undefined; limit: number; cursor: string | undefined },
): Promise<Page<WaitlistEntryView>> {
  const business = await requireBusiness(db, a.slug);
  return listWaitlistOf(db, { ...a, businessId: business.id });
}

async function listWaitlistOf(
  db: Db,
  a: { businessId: string; secret: Buffer; status?: WaitlistStatus | undefined; limit: number; cursor: string | undefined },
): Promise<Page<WaitlistEntryView>> {
  const page = await keysetPage<Listed, { c: string; i: string }>(
    {
      secret: a.secret,
      list: 'waitlist',
      businessId: a.businessId,
      filters: { status: a.status ?? null },
      limit: a.limit,
      cursor: a.cursor,
    },
    (after, fetchLimit) => listEntries(db, a.businessId, { status: a.status, after, limit: fetchLimit }),
    (last) => ({ c: last.createdAt.toISOString(), i: last.id }),
  );
  return { rows: page.rows.map(entryView), cursor: page.cursor };
}

type Listed = WaitlistEntry & { serviceName: string; staffName: string | null };

function entryView(e: Listed): WaitlistEntryView {
  return {
    entryId: e.id,
    status: e.status,
    locationId: e.locationId,
    serviceId: e.serviceId,
    serviceName: e.serviceName,
    staffId: e.staffId,
    staffName: e.staffName,
    name: e.name,
    phone: e.phone,
    email: e.email,
    lang: e.lang,
    dateRange: { from: e.fromDate, to: e.toDate },
    timeWindow: { earliest: e.earliestTime, latest: e.latestTime },
    bookingId: e.bookingId,
    createdAt: e.createdAt.toISOString(),
  };
}
