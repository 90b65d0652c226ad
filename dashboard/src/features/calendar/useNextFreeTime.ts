import { Temporal } from 'temporal-polyfill';
import { addDays } from '../../lib/time.ts';
import type { Service } from '../catalogue/queries.ts';
import { useAgendaDays } from './queries.ts';
import { nextFreeTime } from './week.ts';

/** How many days from the form's date New booking looks for a free time. */
const LOOK_AHEAD_DAYS = 7;

/**
 * New booking's proposal: the staff member's first free time for the service from `from` on, read
 * from the location's agendas (the calendar's own queries). undefined while they load or when the
 * week has no room; null when there is nothing to ask yet.
 */
export function useNextFreeTime(q: {
  slug: string;
  locationSlug: string;
  timeZone: string;
  from: string;
  staffId: string;
  service: Service | undefined;
  stepMinutes: number;
}): { date: string; time: string } | undefined | null {
  const dates = /^\d{4}-\d{2}-\d{2}$/.test(q.from) ? Array.from({ length: LOOK_AHEAD_DAYS }, (_, i) => addDays(q.from, i)) : [];
  const days = useAgendaDays(q.slug, q.locationSlug, dates);
  if (!q.service || !q.staffId || dates.length === 0) return null;
  if (days.some((d) => !d.data)) return null;
  const variant = q.service.staffVariants?.find((v) => v.staffId === q.staffId);
  const now = Temporal.Now.plainDateTimeISO(q.timeZone);
  return nextFreeTime({
    days: days.map((d) => d.data!),
    staffId: q.staffId,
    durationMinutes: variant?.durationMinutes ?? q.service.durationMinutes,
    bufferBeforeMinutes: q.service.bufferBeforeMinutes ?? 0,
    bufferAfterMinutes: q.service.bufferAfterMinutes ?? 0,
    stepMinutes: Math.max(5, q.stepMinutes),
    now: { date: now.toPlainDate().toString(), time: now.toPlainTime().toString({ smallestUnit: 'minute' }) },
  });
}
