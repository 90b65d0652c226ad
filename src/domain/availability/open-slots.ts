/**
 * The slot engine split at "now": openSlots is every slot of a range whatever the time (it depends
 * only on the catalogue, the hours and the busy times, so a cache can keep it under their
 * versions), and boundSlots applies one request's notice, horizon and limit to it. Together they
 * give exactly computeSlots's answer (test/domain/availability-property.test.ts checks it): the
 * engine drops a candidate for its start alone, so dropping it after the sort instead keeps the
 * order and the count.
 */
import { DAY_MS, MINUTE_MS } from '../time/calendar.ts';
import { computeSlots } from './engine.ts';
import type { EngineInput, EngineResult, EngineSlot } from './types.ts';

/**
 * Above this many, a range's open slots are not kept (a cache entry is ~175 bytes a slot; the
 * cache's pool holds 200,000 units): the engine then runs per search with the request's bounds.
 */
export const MAX_OPEN_SLOTS = 50_000;

/**
 * An upper bound of openSlots's length, without running it: each staff member's densest weekday
 * grid, every day of the range.
 */
export function openSlotBound(
  staff: ReadonlyArray<{ workingHours: ReadonlyArray<{ weekday: number; startMinute: number; endMinute: number }> }>,
  slotIntervalMinutes: number,
  days: number,
): number {
  let perDay = 0;
  for (const s of staff) {
    const byWeekday = new Array<number>(8).fill(0);
    for (const h of s.workingHours) {
      if (h.weekday >= 1 && h.weekday <= 7 && h.endMinute > h.startMinute) {
        byWeekday[h.weekday]! += Math.ceil((h.endMinute - h.startMinute) / Math.max(1, slotIntervalMinutes));
      }
    }
    perDay += Math.max(...byWeekday);
  }
  return perDay * days;
}

export type OpenSlotsInput = Omit<EngineInput, 'now' | 'minNoticeMinutes' | 'horizonDays' | 'limit'>;

export function openSlots(input: OpenSlotsInput): readonly EngineSlot[] {
  // Infinite notice bounds: the engine's earliest start is -∞, its latest +∞, and nothing is cut.
  return computeSlots({ ...input, now: 0, minNoticeMinutes: -Infinity, horizonDays: Infinity, limit: Infinity }).slots;
}

export function boundSlots(
  open: readonly EngineSlot[],
  rules: { now: number; minNoticeMinutes: number; horizonDays: number; limit: number },
): EngineResult {
  const earliest = rules.now + rules.minNoticeMinutes * MINUTE_MS;
  const latest = rules.now + rules.horizonDays * DAY_MS;
  const slots: EngineSlot[] = [];
  let total = 0;
  for (const s of open) {
    if (s.startAt < earliest || s.startAt > latest) continue;
    total++;
    if (slots.length < rules.limit) slots.push(s);
  }
  return { slots, total, truncated: total > rules.limit };
}
