import type { ClientSummary } from '../../domain/clients/client.ts';
import { AppError } from '../../domain/errors.ts';
import { findClient, listClientBookings } from '../../store/clients.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { businessViews } from '../bookings/business-view.ts';
import { type ClientView, clientListView } from './views.ts';

/** A client's history on its page: the newest 200 bookings (a salon's most loyal guest has fewer). */
const HISTORY_LIMIT = 200;

export async function requireClient(q: Queryable, clientId: string, now: Date): Promise<ClientSummary> {
  const c = await findClient(q, clientId, now);
  if (!c) throw new AppError('client.not_found', `No client with id "${clientId}".`);
  return c;
}

export async function clientView(q: Queryable, c: ClientSummary): Promise<ClientView> {
  const bookings = await businessViews(q, await listClientBookings(q, c.id, HISTORY_LIMIT));
  return { ...clientListView(c), notes: c.notes, erased: c.erasedAt !== null, bookings };
}

/** GET /admin/v1/clients/{clientId}. */
export async function getClient(db: Db, clientId: string, now: Date): Promise<ClientView> {
  return clientView(db, await requireClient(db, clientId, now));
}
