/**
 * A deliberately slow reference for the slot engine: every grid point goes through Temporal,
 * every unavailability check scans every interval. Shares nothing with the engine but types.
 * Within one call conversions are memoised by (date, minute) only to keep the property test fast.
 */
import { Temporal } from 'temporal-polyfill';
import type { EngineInput, EngineResult, EngineSlot, Interval } from '../../src/domain/availability/types.ts';

const MINUTE = 60_000;

export function referenceSlots(input: EngineInput): EngineResult {
  const tz = input.timezone;
  const conv = new Converter(tz);
  const found = new Map<string, EngineSlot>();
  const last = Temporal.PlainDate.from(input.to);
  for (let date = Temporal.PlainDate.from(input.from); Temporal.PlainDate.compare(date, last) <= 0; date = date.add({ days: 1 })) {
    for (const member of input.staff) {
      // a stylist variant: this member's own duration and segments, the service's buffers
      const service = member.serviceOverride ? { ...input.service, ...member.serviceOverride } : input.service;
      const duration = service.durationMinutes * MINUTE;
      for (const wh of member.workingHours) {
        if (wh.weekday !== date.dayOfWeek) continue;
        const open = conv.boundary(date, wh.startMinute);
        const close = conv.boundary(date, wh.endMinute);
        for (let m = wh.startMinute; m < wh.endMinute; m += input.slotIntervalMinutes) {
          const start = conv.start(date, m);
          if (start === null) continue;
          const end = start + duration;
          if (start < open || end > close) continue;
          if (start < input.now + input.minNoticeMinutes * MINUTE) continue;
          if (start > input.now + input.horizonDays * 86_400_000) continue;
          const blocked = referenceBlocks(service, start).some((occupied) =>
            [...member.timeOff, ...member.busy].some((b) => overlaps(occupied, b)),
          );
          if (blocked) continue;
          // every needed resource has a unit with nothing in the way of the appointment itself
          const appointment = { start, end };
          if (!(input.resources ?? []).every((r) => r.units.some((unit) => !unit.some((b) => overlaps(appointment, b))))) continue;
          const slot: EngineSlot = {
            date: date.toString(),
            startTime: hhmm(Math.floor(m / 60), m % 60),
            endTime: conv.wall(end),
            serviceId: input.service.id,
            staffId: member.id,
            startAt: start,
            endAt: end,
          };
          found.set(`${slot.date} ${slot.startTime} ${slot.staffId}`, slot);
        }
      }
    }
  }
  const all = [...found.values()].sort((a, b) => cmp(a.date, b.date) || cmp(a.startTime, b.startTime) || cmp(a.staffId, b.staffId));
  return { slots: all.slice(0, input.limit), total: all.length, truncated: all.length > input.limit };
}

/**
 * The time a booking starting at `start` takes of its staff member: every work segment, the buffer
 * before glued to the first, the buffer after to the last (processing time is free).
 */
export function referenceBlocks(service: EngineInput['service'], start: number): Interval[] {
  const segments = service.segments ?? [{ kind: 'work' as const, minutes: service.durationMinutes }];
  const blocks: Interval[] = [];
  let at = start;
  for (const s of segments) {
    if (s.kind === 'work') blocks.push({ start: at, end: at + s.minutes * MINUTE });
    at += s.minutes * MINUTE;
  }
  blocks[0]!.start -= service.bufferBeforeMinutes * MINUTE;
  blocks[blocks.length - 1]!.end += service.bufferAfterMinutes * MINUTE;
  return blocks;
}

export function overlaps(a: Interval, b: Interval): boolean {
  return a.start < b.end && b.start < a.end;
}

export class Converter {
  private readonly starts = new Map<string, number | null>();
  private readonly walls = new Map<number, string>();
  constructor(private readonly tz: string) {}

  /** Instant of local (date, minute), its first occurrence if repeated, null if it does not exist. */
  start(date: Temporal.PlainDate, minute: number): number | null {
    const key = `${date.toString()} ${minute}`;
    if (!this.starts.has(key)) {
      const local = date.toPlainDateTime().add({ minutes: minute });
      const zoned = local.toZonedDateTime(this.tz, { disambiguation: 'earlier' });
      this.starts.set(key, zoned.toPlainDateTime().equals(local) ? zoned.epochMilliseconds : null);
    }
    return this.starts.get(key)!;
  }

  /** The first instant whose wall clock reads (date, minute) or later, found by walking minute by minute. */
  boundary(date: Temporal.PlainDate, minute: number): number {
    const local = date.toPlainDateTime().add({ minutes: minute });
    const exact = this.start(date, minute);
    if (exact !== null) return exact;
    let t = local.toZonedDateTime(this.tz, { disambiguation: 'earlier' }).epochMilliseconds;
    while (Temporal.PlainDateTime.compare(this.local(t), local) < 0) t += MINUTE;
    return t;
  }

  wall(instant: number): string {
    let text = this.walls.get(instant);
    if (text === undefined) {
      const z = this.local(instant);
      text = hhmm(z.hour, z.minute);
      this.walls.set(instant, text);
    }
    return text;
  }

  local(instant: number): Temporal.PlainDateTime {
    return Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(this.tz).toPlainDateTime();
  }
}

function hhmm(h: number, m: number): string {
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
