import { MINUTE_MS } from '../time/calendar.ts';
import { processingRanges, type ServiceShape } from '../scheduling/segments.ts';

/** What a booking or a hold occupies of its staff member's calendar. */
export interface HeldRange {
  /** the appointment widened by the service's buffers */
  from: Date;
  to: Date;
  /** the processing parts inside it, during which the staff member is free */
  processing: Array<{ from: Date; to: Date }>;
  /** the resources it needs one unit of for the appointment (the database assigns the units) */
  resourceIds: string[];
}

/** The range a booking holds: the appointment widened by the service's buffers, with its processing parts. */
export function heldRange(startAt: Date, endAt: Date, shape: ServiceShape & { requiredResourceIds?: readonly string[] }): HeldRange {
  return {
    from: new Date(startAt.getTime() - shape.bufferBeforeMinutes * MINUTE_MS),
    to: new Date(endAt.getTime() + shape.bufferAfterMinutes * MINUTE_MS),
    processing: processingRanges(startAt, shape),
    resourceIds: [...(shape.requiredResourceIds ?? [])],
  };
}

/** A range without processing (a group seat, whose session holds the staff member's time). */
export function plainRange(from: Date, to: Date): HeldRange {
  return { from, to, processing: [], resourceIds: [] };
}
