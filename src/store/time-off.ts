import type { Queryable } from './db.ts';

export interface TimeOffRow {
  id: string;
  staff_id: string;
  start_at: Date;
  end_at: Date;
  created_at: Date;
}

export async function insertTimeOff(q: Queryable, t: { id: string; staffId: string; startAt: Date; endAt: Date }): Promise<TimeOffRow> {
  const r = await q.query<TimeOffRow>(
    `INSERT INTO time_off (id, staff_id, start_at, end_at) VALUES ($1, $2, $3, $4)
     RETURNING id, staff_id, start_at, end_at, created_at`,
    [t.id, t.staffId, t.startAt.toISOString(), t.endAt.toISOString()],
  );
  return r.rows[0]!;
}
