import type { BookingRecord, LocalSlot } from './record.ts';
import type { BookingStatus } from './states.ts';

/** A booking's row after a state change, as the store writes it (`updateBooking`). */
export interface BookingChange {
  status: BookingStatus;
  stateVersion: number;
  acceptanceMode: 'manual' | 'automatic';
  staffId: string | null;
  staffName: string | null;
  startAt: Date;
  endAt: Date;
  slot: LocalSlot;
  proposed: BookingRecord['proposed'];
  /** what the booking now holds (buffers included) and for whom */
  occupiedStaffId: string | null;
  occupiedFrom: Date;
  occupiedTo: Date;
  /** the processing parts of that range, during which the staff member is free */
  processing: Array<{ from: Date; to: Date }>;
  /** the resources the booking needs a unit of */
  resourceIds: string[];
  updatedAt: Date;
}
