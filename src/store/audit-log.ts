import type { AuditActorType, NewAuditEntry } from '../domain/audit/actions.ts';
import type { Queryable } from './db.ts';

export interface AuditEntryRecord extends NewAuditEntry {
  id: string;
  at: Date;
}

interface Row {
  id: string;
  business_id: string;
  at: Date;
  actor_type: AuditActorType;
  actor_id: string | null;
  actor_name: string | null;
  actor_role: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  request_id: string | null;
  fields: string[];
}

/**
 * `at` is the database's clock at the insert (clock_timestamp, not the transaction's start), so
 * entries are in the order their writes were recorded, to the microsecond.
 */
export async function insertAuditEntry(q: Queryable, id: string, e: NewAuditEntry): Promise<void> {
  await q.query(
    `INSERT INTO audit_log (id, business_id, at, actor_type, actor_id, actor_name, actor_role, action, target_type, target_id, request_id, fields)
     VALUES ($1, $2, clock_timestamp(), $3, $4, $5, $6, $7, $8, $9, $10, $11::text[])`,
    [id, e.businessId, e.actor.type, e.actor.id, e.actor.name, e.actor.role, e.action, e.target.type, e.target.id, e.requestId, e.fields],
  );
}

export interface AuditFilter {
  /** an actor type (`member`) or an actor's id */
  actor?: string | undefined;
  /** an action (`booking.cancel`) or a resource (`booking`) */
  action?: string | undefined;
  from?: Date | undefined;
  /** exclusive */
  before?: Date | undefined;
  after?: { at: string; id: string } | undefined;
  limit: number;
}

/** A business's entries, newest first. */
export async function listAuditEntries(q: Queryable, businessId: string, f: AuditFilter): Promise<AuditEntryRecord[]> {
  const params: unknown[] = [businessId];
  const where = ['business_id = $1'];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    where.push(sql(params.length));
  };
  if (f.actor) add((n) => `(actor_type = $${n} OR actor_id = $${n})`, f.actor);
  if (f.action) add((n) => (f.action!.includes('.') ? `action = $${n}` : `split_part(action, '.', 1) = $${n}`), f.action);
  if (f.from) add((n) => `at >= $${n}`, f.from);
  if (f.before) add((n) => `at < $${n}`, f.before);
  if (f.after) {
    params.push(f.after.at, f.after.id);
    where.push(`(at, id) < ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  params.push(f.limit);
  const r = await q.query<Row>(
    `SELECT id, business_id, at, actor_type, actor_id, actor_name, actor_role, action, target_type, target_id, request_id, fields
       FROM audit_log WHERE ${where.join(' AND ')} ORDER BY at DESC, id DESC LIMIT $${params.length}`,
    params,
  );
  return r.rows.map((row) => ({
    id: row.id,
    at: new Date(row.at),
    businessId: row.business_id,
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name, role: row.actor_role },
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    requestId: row.request_id,
    fields: row.fields ?? [],
  }));
}

/** Entries older than 12 months go (housekeeping). */
export async function purgeOldAuditEntries(q: Queryable): Promise<number> {
  const r = await q.query(`DELETE FROM audit_log WHERE at < now() - interval '12 months'`);
  return r.rowCount ?? 0;
}
