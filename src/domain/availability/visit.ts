/**
 * Visits (salon-scheduling.md "Visits"): several services back to back, each part possibly with
 * another staff member. Built on the one engine, not beside it: the first part's times are the
 * engine's own slots (grid, notice, horizon, hours, commitments, resources), and each later part is
 * the engine's candidate check (partFits) at the instant the part before it ends, plus both parts'
 * buffers. Parts never meet each other (each starts after the one before has ended with its
 * buffers, and resources are taken for the appointment only), so a part's choice of staff cannot
 * spoil a later part: choosing each part's staff member on its own is complete.
 */
import { isoWeekday, MINUTE_MS, parseIsoDate } from '../time/calendar.ts';
import { wallClock, zoneDay } from '../time/zone-day.ts';
import { computeSlots, partFits, partRules, type PartRules } from './engine.ts';
import { prepareSchedules, type StaffSchedule } from './staff-schedule.ts';
import type { EngineInput, EngineResource, EngineService, EngineSlot, EngineStaff } from './types.ts';

export const MIN_VISIT_PARTS = 2;
export const MAX_VISIT_PARTS = 4;

export interface VisitPartInput {
  service: EngineService;
  /** the staff members who perform this part's service (with `staffId`: that one only) */
  staff: EngineStaff[];
  resources?: readonly EngineResource[] | undefined;
}

export interface VisitEngineInput extends Omit<EngineInput, 'service' | 'staff' | 'resources'> {
  /** the services in the order they are performed, 2 to 4 */
  parts: VisitPartInput[];
}

export interface VisitPart {
  serviceId: string;
  staffId: string;
  startTime: string;
  endTime: string;
  startAt: number;
  endAt: number;
}

/** A whole visit: date, first part's start, last part's end, first part's service and staff. */
export interface VisitSlot extends EngineSlot {
  visit: VisitPart[];
}

export interface VisitResult {
  slots: VisitSlot[];
  total: number;
  truncated: boolean;
}

interface PreparedPart {
  service: EngineService;
  rules: PartRules;
  schedules: StaffSchedule[];
}

/**
 * Every (date, start, first staff member) at which the whole visit fits, in the engine's order
 * (date, start, staff id). The later parts prefer the first part's staff member (one for all),
 * else the first free one by id.
 */
export function computeVisitSlots(input: VisitEngineInput): VisitResult {
  const [first, ...rest] = input.parts;
  if (!first || rest.length === 0) throw new RangeError('a visit has at least two parts');
  const { parts: _parts, limit, ...common } = input;
  const firstSlots = computeSlots({
    ...common,
    service: first.service,
    staff: first.staff,
    resources: first.resources,
    limit: Number.MAX_SAFE_INTEGER,
  }).slots;
  const later: PreparedPart[] = rest.map((p) => ({
    service: p.service,
    rules: partRules(p.service, p.resources),
    schedules: prepareSchedules(p.staff),
  }));

  const slots: VisitSlot[] = [];
  let total = 0;
  let dayKey = '';
  let day = zoneDay(input.timezone, 0);
  let weekday = 0;
  for (const slot of firstSlots) {
    if (slot.date !== dayKey) {
      dayKey = slot.date;
      const epochDay = parseIsoDate(slot.date);
      day = zoneDay(input.timezone, epochDay);
      weekday = isoWeekday(epochDay);
    }
    const visit: VisitPart[] = [{ ...partOf(slot), startTime: slot.startTime, endTime: slot.endTime }];
    let previous = first.service;
    let at = slot.endAt;
    let fits = true;
    for (const part of later) {
      const start = at + (previous.bufferAfterMinutes + part.service.bufferBeforeMinutes) * MINUTE_MS;
      const staff = chooseStaff(part, slot.staffId, day, weekday, start);
      if (staff === null) {
        fits = false;
        break;
      }
      const end = start + part.rules.durationMs;
      visit.push({
        serviceId: part.service.id,
        staffId: staff,
        startTime: wallClock(day, start),
        endTime: wallClock(day, end),
        startAt: start,
        endAt: end,
      });
      previous = part.service;
      at = end;
    }
    if (!fits) continue;
    total++;
    if (slots.length >= limit) continue;
    const last = visit.at(-1)!;
    slots.push({ ...slot, endTime: last.endTime, endAt: last.endAt, visit });
  }
  return { slots, total, truncated: total > limit };
}

function partOf(slot: EngineSlot): Omit<VisitPart, 'startTime' | 'endTime'> {
  return { serviceId: slot.serviceId, staffId: slot.staffId, startAt: slot.startAt, endAt: slot.endAt };
}

/** The first part's staff member when they are free for this part, else the first free one by id. */
function chooseStaff(
  part: PreparedPart,
  preferred: string,
  day: ReturnType<typeof zoneDay>,
  weekday: number,
  start: number,
): string | null {
  const own = part.schedules.find((s) => s.id === preferred);
  if (own && partFits(own, part.rules, day, weekday, start)) return own.id;
  for (const schedule of part.schedules) {
    if (schedule !== own && partFits(schedule, part.rules, day, weekday, start)) return schedule.id;
  }
  return null;
}
