import { normaliseTags } from '../../domain/clients/client.ts';
import { updateClient } from '../../store/clients.ts';
import type { Db } from '../../store/db.ts';
import { clientView, requireClient } from './read.ts';
import type { ClientView } from './views.ts';

export interface ClientPatch {
  name?: string | undefined;
  notes?: string | undefined;
  tags?: string[] | undefined;
}

/** PATCH /admin/v1/clients/{clientId}: the name the salon knows them by, notes and tags. */
export async function patchClient(db: Db, clientId: string, patch: ClientPatch, now: Date): Promise<ClientView> {
  return db.transaction(async (tx) => {
    await requireClient(tx, clientId, now);
    await updateClient(tx, clientId, {
      name: patch.name?.trim(),
      notes: patch.notes,
      tags: patch.tags === undefined ? undefined : normaliseTags(patch.tags),
    });
    return clientView(tx, await requireClient(tx, clientId, now));
  });
}
