import type { NewAuditEntry } from '../../domain/audit/actions.ts';
import { newId } from '../../domain/ids.ts';
import { insertAuditEntry } from '../../store/audit-log.ts';
import type { Queryable } from '../../store/db.ts';
import { businessOf, type IdLocator } from '../../store/resource-business.ts';
import { findBusinessBySlug } from '../../store/businesses.ts';

export async function recordAudit(q: Queryable, entry: NewAuditEntry): Promise<void> {
  await insertAuditEntry(q, newId('aud'), entry);
}

/** The business a write route's parameter names (its slug or a record's id), before the write. */
export async function businessOfParam(q: Queryable, locator: string, value: string | undefined): Promise<string | undefined> {
  if (value === undefined) return undefined;
  if (locator === 'slug') return (await findBusinessBySlug(q, value))?.id;
  if (locator === 'none') return undefined;
  return businessOf(q, locator as IdLocator, value);
}

/** A guest's own change on the manage page: the guest is named by the booking, never by contact. */
export async function recordGuestAction(
  q: Queryable,
  a: { businessId: string; bookingId: string; action: string; requestId: string },
): Promise<void> {
  await recordAudit(q, {
    businessId: a.businessId,
    actor: { type: 'guest', id: a.bookingId, name: null, role: null },
    action: a.action,
    target: { type: 'booking', id: a.bookingId },
    requestId: a.requestId,
    fields: [],
  });
}
