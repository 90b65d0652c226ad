import { clientSearch } from '../../domain/clients/client.ts';
import { keysetPage, type Page } from '../../domain/keyset-page.ts';
import { listClients as listClientRows } from '../../store/clients.ts';
import type { Db } from '../../store/db.ts';
import { requireBusiness } from '../operator/businesses.ts';
import { type ClientListView, clientListView } from './views.ts';

/**
 * GET /admin/v1/businesses/{slug}/clients: by name (folded: lower case, no accents), `q` finding a
 * name or email anywhere in it, or a phone by its digits. Erased clients are not listed.
 */
export async function listClients(
  db: Db,
  a: { slug: string; secret: Buffer; q: string | undefined; limit: number; cursor: string | undefined; now: Date },
): Promise<Page<ClientListView>> {
  const business = await requireBusiness(db, a.slug);
  const search = clientSearch(a.q);
  const page = await keysetPage<Awaited<ReturnType<typeof listClientRows>>[number], { s: string; i: string }>(
    { secret: a.secret, list: 'clients', businessId: business.id, filters: { q: a.q?.trim() ?? null }, limit: a.limit, cursor: a.cursor },
    (after, limit) => listClientRows(db, business.id, { search, now: a.now, after, limit }),
    (last) => ({ s: last.sortKey, i: last.id }),
  );
  return { rows: page.rows.map(clientListView), cursor: page.cursor };
}
