import { nextPartStart } from '../../domain/availability/visit.ts';
import { forStaff } from '../../domain/scheduling/staff-variants.ts';
import { parseIsoDate } from '../../domain/time/calendar.ts';
import { instantToLocal } from '../../domain/time/wall-clock.ts';
import { resolveLocalSlot } from '../../domain/time/local-slot.ts';
import type { Queryable } from '../../store/db.ts';
import type { ExplainInput, ExplainReason, ExplanationView, StaffExplanationView } from './explain.ts';
import { visitServices, visitSlotsAtLocation } from './visit-slots.ts';

/** Rules of the first part's start only: a later part starts wherever the part before it ends. */
const START_ONLY: ReadonlySet<ExplainReason> = new Set([
  'in_the_past',
  'min_notice',
  'beyond_horizon',
  'not_on_interval',
  'nonexistent_local_time',
]);

type ExplainOne = (input: ExplainInput) => Promise<ExplanationView>;

/**
 * Explain with `serviceIds` (salon-scheduling.md "Explain" and "Visits"). `bookable` comes from the
 * visit search itself (visitSlotsAtLocation: the same function the search, the hold and the create
 * use), so it is true exactly when a search of that day offers the time with that staff member
 * first. The reasons are the first part's, from the one-service explain; when the first part alone
 * is free, those of the first later part that does not fit: a one-service explain of that part at
 * the instant it would start, for the same staff member when they perform it, else for everyone
 * who does (each of them has a reason), without the rules that only the first start meets.
 */
export async function explainVisit(
  q: Queryable,
  input: Omit<ExplainInput, 'serviceId'> & { serviceIds: string[] },
  explainOne: ExplainOne,
): Promise<ExplanationView> {
  const { location } = input;
  const epochDay = parseIsoDate(input.date);
  const services = await visitServices(
    q,
    location,
    input.serviceIds,
    input.serviceIds.map((_, i) => (i === 0 ? input.staffId : undefined)),
    'body.serviceIds',
  );
  // The visit of the first `parts` services, searched once however many staff entries ask for it.
  const searched = new Map<number, Promise<Map<string, number>>>();
  const offeredFirst = (parts: number): Promise<Map<string, number>> => {
    let found = searched.get(parts);
    if (!found) {
      found = searchPrefix(parts);
      searched.set(parts, found);
    }
    return found;
  };
  const searchPrefix = async (parts: number): Promise<Map<string, number>> => {
    const { result } = await visitSlotsAtLocation(q, {
      location,
      services: services.slice(0, parts),
      staffIds: services.slice(0, parts).map((_, i) => (i === 0 ? input.staffId : undefined)),
      from: input.date,
      to: input.date,
      firstDay: epochDay,
      lastDay: epochDay,
      now: input.now,
      limit: Number.MAX_SAFE_INTEGER,
    });
    // each first staff member offered at that start, with where the prefix's last part ends
    const ends = new Map<string, number>();
    for (const s of result.slots) if (s.startTime === input.startTime) ends.set(s.staffId, s.visit.at(-1)!.endAt);
    return ends;
  };
  const whole = await offeredFirst(services.length);
  const first = await explainOne({ ...input, serviceId: services[0]!.id });
  const staff: StaffExplanationView[] = [];
  for (const entry of first.staff) {
    if (whole.has(entry.staffId)) {
      staff.push({ ...entry, bookable: true, reasons: [] });
      continue;
    }
    if (entry.reasons.length > 0) {
      staff.push({ ...entry, bookable: false });
      continue;
    }
    staff.push({ ...entry, bookable: false, ...(await laterReasons(entry.staffId)) });
  }
  return { ...first, bookable: staff.some((s) => s.bookable), staff };

  async function laterReasons(staffId: string): Promise<Pick<StaffExplanationView, 'reasons' | 'resources'>> {
    // the first part alone is free (its explain said so): it ends its own length after the start
    const firstPart = forStaff(services[0]!, staffId);
    let end = resolveLocalSlot(location.timezone, input.date, input.startTime, firstPart.durationMinutes, 'body')?.endAt.getTime();
    for (let k = 1; k < services.length && end !== undefined; k++) {
      const start = nextPartStart(end, forStaff(services[k - 1]!, staffId), services[k]!);
      const local = instantToLocal(new Date(start), location.timezone);
      const part = await explainOne({ ...input, serviceId: services[k]!.id, staffId: undefined, date: local.date, startTime: local.time });
      const mine = part.staff.find((s) => s.staffId === staffId);
      const asked = mine ? [mine] : part.staff;
      const reasons = new Set<ExplainReason>();
      const resources = new Map<string, { resourceId: string; name: string }>();
      for (const s of asked) {
        for (const r of s.reasons) if (!START_ONLY.has(r)) reasons.add(r);
        for (const r of s.resources ?? []) resources.set(r.resourceId, r);
      }
      const next = await offeredFirst(k + 1);
      if (!next.has(staffId)) {
        // Every reason is a search's own; one is always named, the part's being out of reach included.
        if (reasons.size === 0) reasons.add('outside_working_hours');
        return { reasons: [...reasons], ...(resources.size > 0 ? { resources: [...resources.values()] } : {}) };
      }
      end = next.get(staffId);
    }
    return { reasons: ['outside_working_hours'] };
  }
}
