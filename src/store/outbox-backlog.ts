import type { Queryable } from './db.ts';

/** Deliveries not yet final; the partial index webhook_deliveries_due_idx covers exactly these. */
export async function countOutboxBacklog(q: Queryable): Promise<number> {
  const r = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status IN ('pending', 'processing', 'retry_scheduled')`,
  );
  return r.rows[0]?.n ?? 0;
}
