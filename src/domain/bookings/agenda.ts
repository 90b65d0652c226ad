import type { WorkingInterval } from '../availability/types.ts';
import { invalidField } from '../errors.ts';
import { formatIsoDate, isoWeekday, parseIsoDate } from '../time/calendar.ts';
import { formatMinutes } from '../time/hh-mm.ts';
import { instantToLocal, localToInstant } from '../time/wall-clock.ts';
import type { BusinessBookingView } from './business-view.ts';
import type { BookingStatus } from './states.ts';

/** What a day view draws: the bookings that hold or held time (declined and cancelled ones did not). */
export const AGENDA_STATUSES: readonly BookingStatus[] = ['requested', 'confirmed', 'rescheduleProposed', 'completed', 'noShow'];

export interface LocalDay {
  date: string;
  weekday: number;
  /** first instant of the local day */
  from: Date;
  /** first instant of the next local day: 23 or 25 hours later on a DST change day */
  to: Date;
}

/** The instants of a location-local day; 400 on the `path` field when the date does not exist. */
export function localDay(date: string, timeZone: string, path: string): LocalDay {
  let epochDay: number;
  try {
    epochDay = parseIsoDate(date);
  } catch {
    throw invalidField(path, 'is not a calendar date');
  }
  const from = localToInstant({ date, time: '00:00' }, timeZone)!;
  const to = localToInstant({ date: formatIsoDate(epochDay + 1), time: '00:00' }, timeZone)!;
  return { date, weekday: isoWeekday(epochDay), from, to };
}

export interface AgendaStaffInput {
  id: string;
  name: string;
  workingHours: readonly WorkingInterval[];
  timeOff: ReadonlyArray<{ startAt: Date; endAt: Date }>;
}

export interface AgendaStaff {
  id: string;
  name: string;
  workingHours: Array<{ start: string; end: string }>;
  timeOff: Array<{ from: string; to: string }>;
  bookings: BusinessBookingView[];
}

export interface Agenda {
  date: string;
  location: { slug: string; timezone: string };
  staff: AgendaStaff[];
}

/**
 * Groups the day's bookings by their staff member. Time off is clipped to the day and shown as local
 * `HH:MM`; one that runs past the day ends at "24:00", the end of day as working hours write it.
 * A booking without a staff member has no column and is left out.
 */
export function buildAgenda(
  day: LocalDay,
  location: { slug: string; timezone: string },
  staff: readonly AgendaStaffInput[],
  bookings: readonly BusinessBookingView[],
): Agenda {
  const local = (at: Date) => instantToLocal(at, location.timezone).time;
  return {
    date: day.date,
    location,
    staff: staff.map((s) => ({
      id: s.id,
      name: s.name,
      workingHours: s.workingHours
        .filter((w) => w.weekday === day.weekday)
        .map((w) => ({ start: formatMinutes(w.startMinute), end: formatMinutes(w.endMinute) })),
      timeOff: s.timeOff
        .filter((t) => t.startAt < day.to && t.endAt > day.from)
        .map((t) => ({
          from: t.startAt <= day.from ? '00:00' : local(t.startAt),
          to: t.endAt >= day.to ? '24:00' : local(t.endAt),
        })),
      bookings: bookings.filter((b) => b.staffId === s.id),
    })),
  };
}
