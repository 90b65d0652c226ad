import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api.ts';
import type { Role } from '../../lib/authorization.ts';
import { currentMessages } from '../../lib/i18n/index.ts';
import { apiKeyKeys, memberKeys, sessionKeys } from '../../lib/query-keys.ts';

export function useMembers(slug: string, enabled: boolean) {
  return useQuery({
    queryKey: memberKeys.members(slug),
    enabled,
    queryFn: async () => unwrap(await api.GET('/admin/v1/businesses/{slug}/members', { params: { path: { slug } } })).members,
  });
}

export function useInvitations(slug: string, enabled: boolean) {
  return useQuery({
    queryKey: memberKeys.invitations(slug),
    enabled,
    queryFn: async () => unwrap(await api.GET('/admin/v1/businesses/{slug}/invitations', { params: { path: { slug } } })).invitations,
  });
}

export function useChangeRole(slug: string) {
  const qc = useQueryClient();
  return useMutation({
    meta: { done: () => currentMessages().confirmations.roleChanged },
    mutationFn: async (p: { userId: string; role: Role }) =>
      unwrap(
        await api.PATCH('/admin/v1/businesses/{slug}/members/{userId}', {
          params: { path: { slug, userId: p.userId } },
          body: { role: p.role },
        }),
      ).member,
    // The caller's own role may have changed: the session is read again too.
    onSettled: () =>
      Promise.all([qc.invalidateQueries({ queryKey: memberKeys.members(slug) }), qc.invalidateQueries({ queryKey: sessionKeys.all })]),
  });
}

export function useRemoveMember(slug: string) {
  const qc = useQueryClient();
  return useMutation({
    meta: { done: () => currentMessages().confirmations.memberRemoved },
    mutationFn: async (userId: string) =>
      unwrap(await api.DELETE('/admin/v1/businesses/{slug}/members/{userId}', { params: { path: { slug, userId } } })).member,
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: memberKeys.members(slug) }),
        qc.invalidateQueries({ queryKey: apiKeyKeys.list(slug) }),
      ]),
  });
}

export function useInvite(slug: string) {
  const qc = useQueryClient();
  return useMutation({
    meta: { done: () => currentMessages().confirmations.invitationSent },
    mutationFn: async (body: { email: string; role: Role }) =>
      unwrap(await api.POST('/admin/v1/businesses/{slug}/invitations', { params: { path: { slug } }, body })).invitation,
    onSuccess: () => qc.invalidateQueries({ queryKey: memberKeys.invitations(slug) }),
  });
}

export function useWithdraw(slug: string) {
  const qc = useQueryClient();
  return useMutation({
    meta: { done: () => currentMessages().confirmations.invitationWithdrawn },
    mutationFn: async (invitationId: string) =>
      unwrap(await api.DELETE('/admin/v1/invitations/{invitationId}', { params: { path: { invitationId } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: memberKeys.invitations(slug) }),
  });
}
