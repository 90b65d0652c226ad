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
