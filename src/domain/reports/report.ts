import { BOOKING_STATUSES, type BookingStatus } from '../bookings/states.ts';
import { SOURCE_KINDS, type SourceKind } from '../bookings/source.ts';
import { toMajor } from '../money.ts';
import { rate } from './rates.ts';

export interface RevenueLine {
  booked: number;
  completed: number;
}

export interface StaffUtilisation {
  staffId: string;
  name: string;
  bookedMinutes: number;
  workingMinutes: number;
  ratio: number | null;
}

/** GET /admin/v1/businesses/{slug}/reports: data.report (docs/reports.md defines each figure). */
export interface Report {
  from: string;
  to: string;
  currency: string;
  bookings: { total: number; byStatus: Record<BookingStatus, number>; bySource: Record<SourceKind, number> };
  revenue: RevenueLine & {
    byStaff: Array<RevenueLine & { staffId: string; name: string }>;
    byService: Array<RevenueLine & { serviceId: string; name: string }>;
  };
  utilisation: { overall: Omit<StaffUtilisation, 'staffId' | 'name'>; byStaff: StaffUtilisation[] };
  noShowRate: number | null;
  cancellationRate: number | null;
  lateCancellationRate: number | null;
  clients: { new: number; returning: number };
  rebookingRate: number | null;
}

/** What the store summed for the period; amounts in minor units, minutes whole. */
export interface ReportFigures {
  counts: ReadonlyArray<{ status: string; source: string; count: number }>;
  pairs: ReadonlyArray<{
    staffId: string | null;
    staffName: string | null;
    serviceId: string;
    serviceName: string;
    bookedMinor: number;
    completedMinor: number;
    workMinutes: number;
  }>;
  /** every staff member counted, with the working minutes of the period (working-minutes.ts) */
  staff: ReadonlyArray<{ id: string; name: string; workingMinutes: number }>;
  lateCancelled: number;
  clients: { total: number; new: number };
  rebooking: { completed: number; rebooked: number };
}

function zeros<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
}

/** Largest booked first; ties by name then id, so the order never depends on the database's. */
function byBooked<T extends RevenueLine & { name: string }>(id: (t: T) => string) {
  return (a: T, b: T) => b.booked - a.booked || a.name.localeCompare(b.name) || id(a).localeCompare(id(b));
}

export function buildReport(period: { from: string; to: string }, currency: string, f: ReportFigures): Report {
  const byStatus = zeros(BOOKING_STATUSES);
  const bySource = zeros(SOURCE_KINDS);
  let total = 0;
  for (const c of f.counts) {
    total += c.count;
    byStatus[c.status as BookingStatus] += c.count;
    bySource[c.source as SourceKind] += c.count;
  }

  const staffRevenue = new Map<string, { staffId: string; name: string; booked: number; completed: number }>();
  const serviceRevenue = new Map<string, { serviceId: string; name: string; booked: number; completed: number }>();
  const workByStaff = new Map<string, number>();
  let bookedMinor = 0;
  let completedMinor = 0;
  for (const p of f.pairs) {
    bookedMinor += p.bookedMinor;
    completedMinor += p.completedMinor;
    const service = serviceRevenue.get(p.serviceId) ?? { serviceId: p.serviceId, name: p.serviceName, booked: 0, completed: 0 };
    service.booked += p.bookedMinor;
    service.completed += p.completedMinor;
    serviceRevenue.set(p.serviceId, service);
    if (p.staffId === null) continue;
    const staff = staffRevenue.get(p.staffId) ?? { staffId: p.staffId, name: p.staffName ?? '', booked: 0, completed: 0 };
    staff.booked += p.bookedMinor;
    staff.completed += p.completedMinor;
    staffRevenue.set(p.staffId, staff);
    workByStaff.set(p.staffId, (workByStaff.get(p.staffId) ?? 0) + p.workMinutes);
  }
  const major = <T extends RevenueLine>(line: T): T => ({
    ...line,
    booked: toMajor(line.booked, currency),
    completed: toMajor(line.completed, currency),
  });

  const utilisation = f.staff.map((s) => {
    const bookedMinutes = workByStaff.get(s.id) ?? 0;
    return { staffId: s.id, name: s.name, bookedMinutes, workingMinutes: s.workingMinutes, ratio: rate(bookedMinutes, s.workingMinutes) };
  });
  const bookedMinutes = utilisation.reduce((n, s) => n + s.bookedMinutes, 0);
  const workingMinutes = utilisation.reduce((n, s) => n + s.workingMinutes, 0);
  const notDeclined = total - byStatus.declined;

  return {
    from: period.from,
    to: period.to,
    currency,
    bookings: { total, byStatus, bySource },
    revenue: {
      booked: toMajor(bookedMinor, currency),
      completed: toMajor(completedMinor, currency),
      byStaff: [...staffRevenue.values()].sort(byBooked((s) => s.staffId)).map(major),
      byService: [...serviceRevenue.values()].sort(byBooked((s) => s.serviceId)).map(major),
    },
    utilisation: { overall: { bookedMinutes, workingMinutes, ratio: rate(bookedMinutes, workingMinutes) }, byStaff: utilisation },
    noShowRate: rate(byStatus.noShow, byStatus.completed + byStatus.noShow),
    cancellationRate: rate(byStatus.cancelled, notDeclined),
    lateCancellationRate: rate(f.lateCancelled, notDeclined),
    clients: { new: f.clients.new, returning: f.clients.total - f.clients.new },
    rebookingRate: rate(f.rebooking.rebooked, f.rebooking.completed),
  };
}
