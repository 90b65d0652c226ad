/**
 * Inputs and outputs of the slot engine. Pure data: no Fastify, no SQL.
 * Instants are epoch milliseconds (UTC); wall-clock values are in the location's IANA zone.
 */

import type { Segment } from '../scheduling/segments.ts';

export interface WorkingInterval {
  /** ISO weekday, Monday = 1 ... Sunday = 7 */
  weekday: number;
  /** minutes after local midnight, 0..1439 */
  startMinute: number;
  /** minutes after local midnight, startMinute < endMinute <= 1440 */
  endMinute: number;
}

export interface Interval {
  /** epoch ms, inclusive */
  start: number;
  /** epoch ms, exclusive */
  end: number;
}

export interface EngineStaff {
  id: string;
  workingHours: WorkingInterval[];
  /** time off, as UTC instants */
  timeOff: Interval[];
  /**
   * Time already occupied by bookings in an occupying state (requested, confirmed,
   * rescheduleProposed), each range already widened by that booking's own buffers; a booking's
   * processing time is not in it (its staff member is free then).
   */
  busy: Interval[];
  /**
   * How this staff member performs the service when it differs from the service's own (a stylist
   * variant, domain/scheduling/staff-variants.ts): their slots last `durationMinutes` and leave them
   * free during their own processing. Absent: the service's duration and segments.
   */
  serviceOverride?: StaffServiceOverride | undefined;
}

/** A staff member's own duration and segments of the service (staff-variants.ts shapeOverride). */
export interface StaffServiceOverride {
  durationMinutes: number;
  /** null: one work segment */
  segments: readonly Segment[] | null;
}

export interface EngineService {
  id: string;
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  /** work and processing parts (domain/scheduling/segments.ts); absent or null: one work segment */
  segments?: readonly Segment[] | null | undefined;
}

/**
 * A resource the service needs one unit of for the appointment itself (salon-scheduling.md
 * "Resources"): a time is offered only when some unit is free for all of it.
 */
export interface EngineResource {
  id: string;
  quantity: number;
  /** what each unit is taken for, index = unit - 1 (bookings and live holds, without buffers) */
  units: Interval[][];
}

export interface EngineInput {
  timezone: string;
  slotIntervalMinutes: number;
  minNoticeMinutes: number;
  horizonDays: number;
  /** epoch ms */
  now: number;
  /** local dates YYYY-MM-DD, both inclusive; already validated (to >= from, at most MAX_RANGE_DAYS apart) */
  from: string;
  to: string;
  service: EngineService;
  /** staff members to consider (already filtered to those performing the service) */
  staff: EngineStaff[];
  /** the resources the service needs (absent: none) */
  resources?: readonly EngineResource[] | undefined;
  /** maximum number of slots to return; total is still counted beyond it */
  limit: number;
}

export interface EngineSlot {
  date: string; // YYYY-MM-DD local
  startTime: string; // HH:MM local
  endTime: string; // HH:MM local
  serviceId: string;
  staffId: string;
  /** epoch ms of the appointment start and end (without buffers) */
  startAt: number;
  endAt: number;
}

export interface EngineResult {
  slots: EngineSlot[];
  /** how many slots existed in total (>= slots.length) */
  total: number;
  truncated: boolean;
}
