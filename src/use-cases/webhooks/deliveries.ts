import { keysetPage } from '../../domain/keyset-page.ts';
import { toDeliveryView, type DeliveryView } from '../../domain/webhooks/delivery-view.ts';
import type { DeliveryWindow } from '../../domain/webhooks/delivery-window.ts';
import type { Queryable } from '../../store/db.ts';
import { listAttempts, listDeliveries } from '../../store/webhook-log.ts';

const LIST = 'public-webhook-deliveries';

/** Where the next page starts, and the window the first page resolved (so "now" does not move). */
interface Position {
  at: string;
  id: string;
  from: string;
  to: string | null;
}

export interface DeliveryLogQuery {
  serverSecret: Buffer;
  businessId: string;
  /** The filters as sent: the cursor is bound to them. */
  filters: { event?: string | undefined; outcome?: string | undefined; from?: string | undefined; to?: string | undefined; limit: number };
  cursor: string | undefined;
  /** The window page 1 resolved; unused with a cursor, which carries its own. */
  window: DeliveryWindow | undefined;
}

/** One page of the delivery log, newest first, each record with its attempts. */
export async function listWebhookDeliveries(
  q: Queryable,
  p: DeliveryLogQuery,
): Promise<{ deliveries: DeliveryView[]; cursor: string | undefined }> {
  const { filters } = p;
  const windowAfter = (position: Position | undefined) =>
    position ? { from: new Date(position.from), to: position.to === null ? null : new Date(position.to) } : p.window!;
  const { rows: page, cursor } = await keysetPage(
    { secret: p.serverSecret, list: LIST, businessId: p.businessId, filters, limit: filters.limit, cursor: p.cursor },
    (position: Position | undefined, fetchLimit) => {
      const window = windowAfter(position);
      return listDeliveries(q, {
        businessId: p.businessId,
        from: window.from,
        to: window.to,
        event: filters.event,
        outcome: filters.outcome,
        before: position ? { at: position.at, id: position.id } : undefined,
        limit: fetchLimit,
      });
    },
    (last, position) => {
      const window = windowAfter(position);
      return {
        at: last.positionAt,
        id: last.deliveryId,
        from: window.from.toISOString(),
        to: window.to === null ? null : window.to.toISOString(),
      };
    },
  );
  const attempts = await listAttempts(
    q,
    page.map((d) => d.deliveryId),
  );
  return { deliveries: page.map((d) => toDeliveryView(d, attempts)), cursor };
}
