/**
 * Visits (salon-scheduling.md "Visits"): several services back to back, each part possibly with
 * another staff member. Built on the one engine, not beside it: the first part's times are the
 * engine's own slots (grid, notice, horizon, hours, commitments, resources), and each later part is
 * the engine's candidate check (staffFits, partResourcesFree) at the instant the part before it ends, plus both parts'
 * buffers. Parts never meet each other (each starts after the one before has ended with its
 * buffers, and resources are taken for the appointment only), so a part's choice of staff cannot
 * spoil a later part: choosing each part's staff member on its own is complete.
 */
import { invalidField } from '../errors.ts';
import { isoWeekday, MINUTE_MS, parseIsoDate } from '../time/calendar.ts';
import { wallClock, zoneDay, type ZoneDay } from '../time/zone-day.ts';
import { computeSlots, partResourcesFree, partRules, type PartRules, staffFits } from './engine.ts';
import { prepareSchedules, type StaffSchedule } from './staff-schedule.ts';
import type { EngineInput, EngineResource, EngineService, EngineSlot, EngineStaff } from './types.ts';

export const MIN_VISIT_PARTS = 2;

/** A search, a hold or an explain names one service or a visit's services: exactly one of the two (400 otherwise). */
export function requireOneServiceOrVisit(body: { serviceId?: string | undefined; serviceIds?: readonly string[] | undefined }): void {
  if ((body.serviceId === undefined) === (body.serviceIds === undefined)) {
    throw invalidField('body.serviceId', 'exactly one of serviceId and serviceIds is required');
  }
}

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
  // The engine's slots come by date, start, staff: the later parts of one start are the same for
  // every first staff member, so who fits them is worked out once per start, not once per slot.
  let shapeStart = Number.NaN;
  let shape: LaterPart[] | null = null;
  for (const slot of firstSlots) {
    if (slot.date !== dayKey) {
      dayKey = slot.date;
      const epochDay = parseIsoDate(slot.date);
      day = zoneDay(input.timezone, epochDay);
      weekday = isoWeekday(epochDay);
    }
    if (slot.startAt !== shapeStart) {
      shapeStart = slot.startAt;
      shape = laterParts(first.service, later, day, weekday, slot.endAt);
    }
    if (shape === null) continue;
    total++;
    if (slots.length >= limit) continue;
    const visit: VisitPart[] = [{ ...partOf(slot), startTime: slot.startTime, endTime: slot.endTime }];
    for (const part of shape) {
      // one staff member for all when they can, else the first free one by id
      const staffId = part.free.includes(slot.staffId) ? slot.staffId : part.free[0]!;
      visit.push({
        serviceId: part.serviceId,
        staffId,
        startTime: part.startTime,
        endTime: part.endTime,
        startAt: part.startAt,
        endAt: part.endAt,
      });
    }
    const last = visit.at(-1)!;
    slots.push({ ...slot, endTime: last.endTime, endAt: last.endAt, visit });
  }
  return { slots, total, truncated: total > limit };
}

/**
 * Where the next part of a visit starts: after the part before has ended, with its buffer after and
 * the next one's buffer before between them (the front desk's manual visits follow the same rule).
 */
export function nextPartStart(
  previousEnd: number,
  previous: Pick<EngineService, 'bufferAfterMinutes'>,
  next: Pick<EngineService, 'bufferBeforeMinutes'>,
): number {
  return previousEnd + (previous.bufferAfterMinutes + next.bufferBeforeMinutes) * MINUTE_MS;
}

/** A later part of the visits that start at one time: where it sits and who (by id) is free for it. */
interface LaterPart {
  serviceId: string;
  startAt: number;
  endAt: number;
  startTime: string;
  endTime: string;
  free: string[];
}

/**
 * The later parts of a visit whose first part ends at `firstEnd`, each after the one before plus
 * both parts' buffers; null when some part has no one free for it.
 */
function laterParts(
  firstService: EngineService,
  later: readonly PreparedPart[],
  day: ZoneDay,
  weekday: number,
  firstEnd: number,
): LaterPart[] | null {
  const out: LaterPart[] = [];
  let previous = firstService;
  let at = firstEnd;
  for (const part of later) {
    const start = nextPartStart(at, previous, part.service);
    // the engine's candidate check, its resource half once for every staff member
    if (!partResourcesFree(part.rules, start)) return null;
    const free: string[] = [];
    for (const schedule of part.schedules) if (staffFits(schedule, part.rules, day, weekday, start)) free.push(schedule.id);
    if (free.length === 0) return null;
    const end = start + part.rules.durationMs;
    out.push({
      serviceId: part.service.id,
      startAt: start,
      endAt: end,
      startTime: wallClock(day, start),
      endTime: wallClock(day, end),
      free,
    });
    previous = part.service;
    at = end;
  }
  return out;
}

function partOf(slot: EngineSlot): Omit<VisitPart, 'startTime' | 'endTime'> {
  return { serviceId: slot.serviceId, staffId: slot.staffId, startAt: slot.startAt, endAt: slot.endAt };
}
