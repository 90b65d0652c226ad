/** Builders shared by the availability engine tests; defaults describe a quiet Monday in UTC. */
import fc from 'fast-check';
import type {
  EngineInput,
  EngineSlot,
  EngineStaff,
  Interval,
  StaffServiceOverride,
  WorkingInterval,
} from '../../src/domain/availability/types.ts';

export const MINUTE = 60_000;

/** Minutes after midnight of "HH:MM". */
export function hm(text: string): number {
  const [h, m] = text.split(':').map(Number);
  return h! * 60 + m!;
}

export function hours(weekday: number, from: string, to: string): WorkingInterval {
  return { weekday, startMinute: hm(from), endMinute: to === '24:00' ? 1440 : hm(to) };
}

export function at(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad instant ${iso}`);
  return ms;
}

export function span(fromIso: string, toIso: string): Interval {
  return { start: at(fromIso), end: at(toIso) };
}

export function staff(id: string, workingHours: WorkingInterval[], extra: Partial<EngineStaff> = {}): EngineStaff {
  return { id, workingHours, timeOff: [], busy: [], ...extra };
}

export function engineInput(overrides: Partial<EngineInput> = {}): EngineInput {
  return {
    timezone: 'UTC',
    slotIntervalMinutes: 30,
    minNoticeMinutes: 0,
    horizonDays: 365,
    now: at('2026-01-01T00:00:00Z'),
    from: '2026-06-01',
    to: '2026-06-01',
    service: { id: 'svc', durationMinutes: 60, bufferBeforeMinutes: 0, bufferAfterMinutes: 0 },
    staff: [staff('s1', [hours(1, '09:00', '12:00')])],
    limit: 1000,
    ...overrides,
  };
}

export function startTimes(slots: EngineSlot[]): string[] {
  return slots.map((s) => s.startTime);
}

/** "startTime-endTime @ UTC start instant", compact enough to list a whole day in one assertion. */
export function describeSlot(s: EngineSlot): string {
  return `${s.startTime}-${s.endTime} @${new Date(s.startAt).toISOString().slice(0, 16)}Z`;
}

/** A stylist variant's shape: another duration, with or without processing of its own. */
export const staffServiceOverride: fc.Arbitrary<StaffServiceOverride> = fc.oneof(
  fc.integer({ min: 1, max: 240 }).map((durationMinutes) => ({ durationMinutes, segments: null })),
  fc
    .array(fc.integer({ min: 1, max: 90 }), { minLength: 3, maxLength: 5 })
    .filter((a) => a.length % 2 === 1)
    .map((parts) => ({
      durationMinutes: parts.reduce((a, b) => a + b, 0),
      segments: parts.map((minutes, i) => ({ kind: i % 2 === 0 ? ('work' as const) : ('processing' as const), minutes })),
    })),
);
