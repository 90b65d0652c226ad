import type { Queryable } from './db.ts';

export interface SeatedSession {
  id: string;
  service_id: string;
  staff_id: string;
  staff_name: string;
  start_at: Date;
  end_at: Date;
  /** the session's seat price, if it has one (minor units) */
  price_minor: number | null;
}

/** Takes one seat if one is left; the conditional UPDATE is atomic under concurrency. */
export async function takeSeat(q: Queryable, sessionId: string): Promise<SeatedSession | undefined> {
  const r = await q.query<SeatedSession>(
    `UPDATE group_sessions g SET seats_taken = seats_taken + 1
       FROM staff s
      WHERE g.id = $1 AND s.id = g.staff_id AND g.seats_taken < g.capacity_max
      RETURNING g.id, g.service_id, g.staff_id, s.name AS staff_name, g.start_at, g.end_at, g.price_minor`,
    [sessionId],
  );
  return r.rows[0];
}

export async function releaseSeat(q: Queryable, sessionId: string): Promise<void> {
  await q.query('UPDATE group_sessions SET seats_taken = seats_taken - 1 WHERE id = $1 AND seats_taken > 0', [sessionId]);
}

/**
 * Whether a session is offered, for the search and the booking alike (a booking can only take what
 * a search could show): its staff member is active and has no time off overlapping it. SQL over
 * `g` (group_sessions) and `s` (its staff row).
 */
export const SESSION_OFFERED = `s.active AND NOT EXISTS (
         SELECT 1 FROM time_off t WHERE t.staff_id = g.staff_id AND t.start_at < g.end_at AND t.end_at > g.start_at)`;

/** The service's session `sessionId`: absent, or whether it is offered now (SESSION_OFFERED). */
export async function findSession(q: Queryable, sessionId: string, serviceId: string): Promise<{ offered: boolean } | undefined> {
  const r = await q.query<{ offered: boolean }>(
    `SELECT ${SESSION_OFFERED} AS offered FROM group_sessions g JOIN staff s ON s.id = g.staff_id WHERE g.id = $1 AND g.service_id = $2`,
    [sessionId, serviceId],
  );
  return r.rows[0];
}
