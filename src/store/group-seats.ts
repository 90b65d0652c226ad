import type { Queryable } from './db.ts';

export interface SeatedSession {
  id: string;
  service_id: string;
  staff_id: string;
  staff_name: string;
  start_at: Date;
  end_at: Date;
}

/** Takes one seat if one is left; the conditional UPDATE is atomic under concurrency. */
export async function takeSeat(q: Queryable, sessionId: string): Promise<SeatedSession | undefined> {
  const r = await q.query<SeatedSession>(
    `UPDATE group_sessions g SET seats_taken = seats_taken + 1
       FROM staff s
      WHERE g.id = $1 AND s.id = g.staff_id AND g.seats_taken < g.capacity_max
      RETURNING g.id, g.service_id, g.staff_id, s.name AS staff_name, g.start_at, g.end_at`,
    [sessionId],
  );
  return r.rows[0];
}

export async function releaseSeat(q: Queryable, sessionId: string): Promise<void> {
  await q.query('UPDATE group_sessions SET seats_taken = seats_taken - 1 WHERE id = $1 AND seats_taken > 0', [sessionId]);
}

export async function sessionExists(q: Queryable, sessionId: string, serviceId: string): Promise<boolean> {
  const r = await q.query('SELECT 1 FROM group_sessions WHERE id = $1 AND service_id = $2', [sessionId, serviceId]);
  return r.rowCount > 0;
}
