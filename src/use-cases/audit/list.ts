import { keysetPage, type Page } from '../../domain/keyset-page.ts';
import { listAuditEntries } from '../../store/audit-log.ts';
import type { Db } from '../../store/db.ts';
import { requireBusiness } from '../operator/businesses.ts';

export interface AuditEntryView {
  id: string;
  at: string;
  actor: { type: 'operator' | 'member' | 'guest'; id: string | null; name: string | null; role: string | null };
  action: string;
  target: { type: string; id: string | null };
  requestId: string | null;
  fields: string[];
}

/**
 * GET /admin/v1/businesses/{slug}/audit-log: newest first; `actor` an actor type or id, `action` an
 * action or a resource, `from`/`to` UTC dates (inclusive).
 */
export async function listAuditLog(
  db: Db,
  a: {
    slug: string;
    secret: Buffer;
    actor?: string | undefined;
    action?: string | undefined;
    from?: string | undefined;
    to?: string | undefined;
    limit: number;
    cursor: string | undefined;
  },
): Promise<Page<AuditEntryView>> {
  const business = await requireBusiness(db, a.slug);
  const from = a.from ? new Date(`${a.from}T00:00:00Z`) : undefined;
  const before = a.to ? new Date(Date.parse(`${a.to}T00:00:00Z`) + 86_400_000) : undefined;
  const page = await keysetPage<Awaited<ReturnType<typeof listAuditEntries>>[number], { t: string; i: string }>(
    {
      secret: a.secret,
      list: 'audit-log',
      businessId: business.id,
      filters: { actor: a.actor ?? null, action: a.action ?? null, from: a.from ?? null, to: a.to ?? null },
      limit: a.limit,
      cursor: a.cursor,
    },
    (after, limit) =>
      listAuditEntries(db, business.id, {
        actor: a.actor,
        action: a.action,
        from,
        before,
        after: after && { at: after.t, id: after.i },
        limit,
      }),
    (last) => ({ t: last.at.toISOString(), i: last.id }),
  );
  return {
    rows: page.rows.map((e) => ({
      id: e.id,
      at: e.at.toISOString(),
      actor: e.actor,
      action: e.action,
      target: e.target,
      requestId: e.requestId,
      fields: e.fields,
    })),
    cursor: page.cursor,
  };
}
