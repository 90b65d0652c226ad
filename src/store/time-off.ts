import type { Queryable } from './db.ts';

export interface TimeOffRow {
  id: string;
  staff_id: string;
  start_at: Date;
  end_at: Date;
  created_at: Date;
}

const COLUMNS = 'id, staff_id, start_at, end_at, created_at';

export async function insertTimeOff(q: Queryable, t: { id: string; staffId: string; startAt: Date; endAt: Date }): Promise<TimeOffRow> {
  const r = await q.query<TimeOffRow>(
    `INSERT INTO time_off (id, staff_id, start_at, end_at) VALUES ($1, $2, $3, $4)
     RETURNING ${COLUMNS}`,
    [t.id, t.staffId, t.startAt.toISOString(), t.endAt.toISOString()],
  );
  return r.rows[0]!;
}

/** A staff member's time off overlapping [from, to) (either end open when absent), by start then id. */
export async function listTimeOff(q: Queryable, staffId: string, from?: Date, to?: Date): Promise<TimeOffRow[]> {
  const r = await q.query<TimeOffRow>(
    `SELECT ${COLUMNS} FROM time_off
      WHERE staff_id = $1 AND ($2::timestamptz IS NULL OR end_at > $2) AND ($3::timestamptz IS NULL OR start_at < $3)
      ORDER BY start_at, id COLLATE "C"`,
    [staffId, from?.toISOString() ?? null, to?.toISOString() ?? null],
  );
  return r.rows;
}

/** The removed row, or undefined when there was none. */
export async function deleteTimeOff(q: Queryable, id: string): Promise<TimeOffRow | undefined> {
  const r = await q.query<TimeOffRow>(`DELETE FROM time_off WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
  return r.rows[0];
}
