import type { Queryable } from './db.ts';
import { isExclusionViolation } from './db-errors.ts';

export interface GroupSessionRow {
  id: string;
  service_id: string;
  staff_id: string;
  start_at: Date;
  end_at: Date;
  capacity_max: number;
  seats_taken: number;
  price_minor: number | null;
  created_at: Date;
}

const COLUMNS = 'id, service_id, staff_id, start_at, end_at, capacity_max, seats_taken, price_minor, created_at';

/**
 * `time_taken`: the staff member has a booking or another session in that time (the trigger of
 * migration 003 raises the same exclusion violation as an overlapping booking).
 */
export async function insertGroupSession(
  q: Queryable,
  s: {
    id: string;
    businessId: string;
    serviceId: string;
    staffId: string;
    startAt: Date;
    endAt: Date;
    capacityMax: number;
    priceMinor: number | null;
  },
): Promise<GroupSessionRow | 'time_taken'> {
  try {
    const r = await q.query<GroupSessionRow>(
      `INSERT INTO group_sessions (id, business_id, service_id, staff_id, start_at, end_at, capacity_max, price_minor)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       RETURNING ${COLUMNS}`,
      [s.id, s.businessId, s.serviceId, s.staffId, s.startAt.toISOString(), s.endAt.toISOString(), s.capacityMax, s.priceMinor],
    );
    return r.rows[0]!;
  } catch (err) {
    if (isExclusionViolation(err)) return 'time_taken';
    throw err;
  }
}

/** Every session of the service, past ones too, by start then id. */
export async function listGroupSessions(q: Queryable, serviceId: string): Promise<GroupSessionRow[]> {
  const r = await q.query<GroupSessionRow>(
    `SELECT ${COLUMNS} FROM group_sessions WHERE service_id = $1 ORDER BY start_at, id COLLATE "C"`,
    [serviceId],
  );
  return r.rows;
}
