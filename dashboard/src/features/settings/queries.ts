import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api.ts';
import type { operations } from '../../lib/api-types.ts';
import { settingsKeys } from '../../lib/query-keys.ts';

type Op = operations['operatorPatchGuestSettings'];
export type GuestSettings = Op['responses'][200]['content']['application/json']['data']['guestSettings'];
export type GuestSettingsPatch = Op['requestBody']['content']['application/json'];

/** The business's guest settings, defaults included (every role may read them). */
export function useGuestSettings(slug: string) {
  return useQuery({
    queryKey: settingsKeys.guest(slug),
    queryFn: async () => unwrap(await api.GET('/admin/v1/businesses/{slug}/guest-settings', { params: { path: { slug } } })).guestSettings,
  });
}

/** A PATCH of what changed; the answer (the whole settings as stored) replaces the cached read. */
export function useSaveGuestSettings(slug: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: GuestSettingsPatch) =>
      unwrap(await api.PATCH('/admin/v1/businesses/{slug}/guest-settings', { params: { path: { slug } }, body })).guestSettings,
    onSuccess: (settings) => qc.setQueryData(settingsKeys.guest(slug), settings),
  });
}
