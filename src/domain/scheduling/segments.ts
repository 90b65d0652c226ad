/**
 * Processing time (salon-scheduling.md "Processing time"): a service is a sequence of `work` and
 * `processing` segments. The staff member is busy during work and free during processing; buffers
 * surround the whole service. Everything that needs to know which parts of a booking take the
 * staff member's time (the engine, explain, holds, creates, moves) asks this module.
 */
import { MINUTE_MS } from '../time/calendar.ts';

export type SegmentKind = 'work' | 'processing';

export interface Segment {
  kind: SegmentKind;
  minutes: number;
}

/** What the shape of a service's time depends on. `segments` null: one work segment. */
export interface ServiceShape {
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  segments: readonly Segment[] | null;
}

export const MAX_SEGMENTS = 9;

/**
 * Why a list of segments is not usable for a service of `durationMinutes`, in words for the field
 * (null when it is): the minutes add up to the duration, the first and last segments are work, no
 * two processing segments are adjacent.
 */
export function segmentsProblem(segments: readonly Segment[], durationMinutes: number): string | null {
  if (segments.length === 0) return 'must list at least one segment';
  if (segments.length > MAX_SEGMENTS) return `may list at most ${MAX_SEGMENTS} segments`;
  let total = 0;
  for (const s of segments) {
    if (!Number.isInteger(s.minutes) || s.minutes < 1) return 'each segment lasts a whole number of minutes, at least 1';
    total += s.minutes;
  }
  if (total !== durationMinutes) return `the segments add up to ${total} minutes, not the service's ${durationMinutes}`;
  if (segments[0]!.kind !== 'work' || segments.at(-1)!.kind !== 'work') return 'the first and the last segment are work';
  for (let i = 1; i < segments.length; i++) {
    if (segments[i]!.kind === segments[i - 1]!.kind) return 'two segments of the same kind are never next to each other';
  }
  return null;
}

/** One work segment, the shape of a service without `segments`. */
export function effectiveSegments(shape: Pick<ServiceShape, 'durationMinutes' | 'segments'>): readonly Segment[] {
  return shape.segments && shape.segments.length > 0 ? shape.segments : [{ kind: 'work', minutes: shape.durationMinutes }];
}

/**
 * The parts of a booking starting at offset 0 during which the staff member is busy, as
 * [from, to) offsets in milliseconds: each work segment, the first widened by the buffer before,
 * the last by the buffer after. A one-segment service gives the one range it always had.
 */
export function staffBlocks(shape: ServiceShape): Array<[number, number]> {
  const blocks: Array<[number, number]> = [];
  let at = 0;
  for (const s of effectiveSegments(shape)) {
    const end = at + s.minutes * MINUTE_MS;
    if (s.kind === 'work') blocks.push([at, end]);
    at = end;
  }
  blocks[0]![0] -= shape.bufferBeforeMinutes * MINUTE_MS;
  blocks.at(-1)![1] += shape.bufferAfterMinutes * MINUTE_MS;
  return blocks;
}

/** The processing parts of a booking that starts at `startAt`, as instants. */
export function processingRanges(
  startAt: Date,
  shape: Pick<ServiceShape, 'durationMinutes' | 'segments'>,
): Array<{ from: Date; to: Date }> {
  const out: Array<{ from: Date; to: Date }> = [];
  let at = startAt.getTime();
  for (const s of effectiveSegments(shape)) {
    const end = at + s.minutes * MINUTE_MS;
    if (s.kind === 'processing') out.push({ from: new Date(at), to: new Date(end) });
    at = end;
  }
  return out;
}
