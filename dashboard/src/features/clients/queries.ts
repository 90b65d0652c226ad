import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api.ts';
import { currentMessages } from '../../lib/i18n/index.ts';
import { clientKeys } from '../../lib/query-keys.ts';

export const CLIENTS_PAGE = 25;

/** The client list, or a search of it (`q` of 2 characters or more; the API refuses shorter). */
export function useClients(slug: string, q: string | undefined, cursor: string | undefined) {
  return useQuery({
    queryKey: clientKeys.list(slug, { q, cursor }),
    queryFn: async () => {
      const r = await api.GET('/admin/v1/businesses/{slug}/clients', {
        params: { path: { slug }, query: { limit: CLIENTS_PAGE, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) } },
      });
      return { clients: unwrap(r).clients, next: r.data?.meta.cursor };
    },
    placeholderData: keepPreviousData,
  });
}

export function useClient(clientId: string) {
  return useQuery({
    queryKey: clientKeys.detail(clientId),
    queryFn: async () => unwrap(await api.GET('/admin/v1/clients/{clientId}', { params: { path: { clientId } } })).client,
  });
}

export interface ClientChange {
  notes?: string;
  tags?: string[];
  name?: string;
}

export function usePatchClient(clientId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: ClientChange) =>
      unwrap(await api.PATCH('/admin/v1/clients/{clientId}', { params: { path: { clientId } }, body })).client,
    meta: { done: () => currentMessages().confirmations.clientSaved },
    onSuccess: async (client) => {
      qc.setQueryData(clientKeys.detail(clientId), client);
      await qc.invalidateQueries({ queryKey: clientKeys.all });
    },
  });
}
