import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api.ts';
import type { operations } from '../../lib/api-types.ts';
import { apiKeyKeys, memberKeys } from '../../lib/query-keys.ts';
import { pageWordsNow } from '../../lib/i18n/page-words.ts';
import { apiKeysWords } from './words.ts';

export type NewKey = operations['operatorCreateApiKey']['requestBody']['content']['application/json'];
export type Capability = NewKey['capabilities'][number];

export const CAPABILITIES: readonly Capability[] = [
  'availability.read',
  'booking.create',
  'booking.read',
  'booking.cancel',
  'services.read',
  'staff.read',
  'webhook.manage',
  'subscription.read',
];
/** What a guest_partner key may hold (the API refuses the others). */
export const GUEST_PARTNER_CAPABILITIES: readonly Capability[] = ['services.read', 'staff.read', 'availability.read', 'booking.create'];

export function useApiKeys(slug: string, enabled: boolean) {
  return useQuery({
    queryKey: apiKeyKeys.list(slug),
    enabled,
    queryFn: async () => unwrap(await api.GET('/admin/v1/businesses/{slug}/api-keys', { params: { path: { slug } } })).apiKeys,
  });
}

export function useMembersForKeys(slug: string, enabled: boolean) {
  return useQuery({
    queryKey: memberKeys.members(slug),
    enabled,
    queryFn: async () => unwrap(await api.GET('/admin/v1/businesses/{slug}/members', { params: { path: { slug } } })).members,
  });
}

export function useCreateKey(slug: string) {
  const qc = useQueryClient();
  return useMutation({
    meta: { done: () => pageWordsNow(apiKeysWords).keyCreated },
    mutationFn: async (body: NewKey) =>
      unwrap(await api.POST('/admin/v1/businesses/{slug}/api-keys', { params: { path: { slug } }, body })).apiKey,
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKeyKeys.list(slug) }),
  });
}

export function useRevokeKey(slug: string) {
  const qc = useQueryClient();
  return useMutation({
    meta: { done: () => pageWordsNow(apiKeysWords).keyRevoked },
    mutationFn: async (keyId: string) => unwrap(await api.DELETE('/admin/v1/api-keys/{keyId}', { params: { path: { keyId } } })).apiKey,
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKeyKeys.list(slug) }),
  });
}
