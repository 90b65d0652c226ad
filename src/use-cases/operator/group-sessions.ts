import { AppError, invalidField } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import type { Db } from '../../store/db.ts';
import { insertGroupSession, listGroupSessions, type GroupSessionRow } from '../../store/group-sessions.ts';
import { findStaffById, staffPerformsService } from '../../store/staff.ts';
import { requireService } from './services.ts';

export interface GroupSessionInput {
  staffId: string;
  startAtUtc: string;
  endAtUtc: string;
  capacityMax: number;
  priceMinor?: number;
}

export interface GroupSessionView {
  id: string;
  serviceId: string;
  staffId: string;
  startAtUtc: string;
  endAtUtc: string;
  capacityMax: number;
  seatsTaken: number;
  remainingSeats: number;
  /** minor units of the business currency; null when the session carries no price of its own */
  priceMinor: number | null;
  createdAt: string;
}

export async function createGroupSession(db: Db, serviceId: string, input: GroupSessionInput): Promise<GroupSessionView> {
  const startAt = new Date(input.startAtUtc);
  const endAt = new Date(input.endAtUtc);
  if (startAt >= endAt) throw invalidField('body.endAtUtc', 'must be after startAtUtc');
  return insertSession(db, serviceId, input, startAt, endAt);
}

function insertSession(db: Db, serviceId: string, input: GroupSessionInput, startAt: Date, endAt: Date): Promise<GroupSessionView> {
  return db.transaction(async (tx) => {
    const service = await requireService(tx, serviceId);
    if (service.bookingMode !== 'groupSession') {
      throw invalidField('params.serviceId', 'is not a group-session service (bookingMode must be groupSession)');
    }
    // Same rule as booking: the staff member must be at the service's location and perform it.
    const staff = await findStaffById(tx, input.staffId);
    if (!staff?.active || staff.locationId !== service.locationId || !(await staffPerformsService(tx, staff.id, service.id))) {
      throw new AppError('catalog.staff_not_found', `Staff member "${input.staffId}" does not perform this service at its location.`);
    }
    const row = await insertGroupSession(tx, {
      id: newId('ses'),
      businessId: service.businessId,
      serviceId: service.id,
      staffId: staff.id,
      startAt,
      endAt,
      capacityMax: input.capacityMax,
      priceMinor: input.priceMinor ?? null,
    });
    // The session takes the staff member's time (migration 003): a clash with their bookings or
    // another of their sessions is the same 409 a clashing booking gets.
    if (row === 'time_taken') {
      throw new AppError('booking.slot_unavailable', 'The staff member has a booking or another session in that time.');
    }
    return sessionView(row);
  });
}

function sessionView(row: GroupSessionRow): GroupSessionView {
  return {
    id: row.id,
    serviceId: row.service_id,
    staffId: row.staff_id,
    startAtUtc: row.start_at.toISOString(),
    endAtUtc: row.end_at.toISOString(),
    capacityMax: row.capacity_max,
    seatsTaken: row.seats_taken,
    remainingSeats: row.capacity_max - row.seats_taken,
    priceMinor: row.price_minor,
    createdAt: row.created_at.toISOString(),
  };
}

/** Every session of the service, past and full ones too, by start; a standard service has none. */
export async function listSessions(db: Db, serviceId: string): Promise<GroupSessionView[]> {
  return db.transaction(async (tx) => {
    const service = await requireService(tx, serviceId);
    return (await listGroupSessions(tx, service.id)).map(sessionView);
  });
}
