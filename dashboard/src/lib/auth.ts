import { loadCatalog } from './i18n/catalogs.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, getSession, type Member, unwrap } from './api.ts';
import { SIGN_IN_MUTATION, sessionKeys } from './query-keys.ts';

export const SESSION_KEY = sessionKeys.all;

/** The signed-in member (null: signed out). Read once per load; sign-in and sign-out set it. */
export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async () => {
      const member = await getSession();
      // the member's words are there before anything is drawn in them
      if (member) await loadCatalog(member.language);
      return member;
    },
    staleTime: 5 * 60_000,
  });
}

export function useSignIn() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: SIGN_IN_MUTATION,
    mutationFn: async (body: { email: string; password: string }): Promise<Member> => {
      const member = unwrap(await api.POST('/admin/v1/session', { body })).member;
      await loadCatalog(member.language);
      return member;
    },
    onSuccess: (member) => {
      qc.clear();
      qc.setQueryData(SESSION_KEY, member);
    },
  });
}

export function useSignOut() {
  const qc = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: async () => {
      const r = await api.DELETE('/admin/v1/session');
      // Already signed out on the server (401) is signed out.
      if (r.response.status !== 401) unwrap(r);
    },
    onSuccess: () => {
      qc.clear();
      qc.setQueryData(SESSION_KEY, null);
    },
  });
}

/** The member's own language (PATCH /admin/v1/session): the whole dashboard switches when it is stored. */
export function useSetLanguage() {
  const qc = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: async (language: Member['language']): Promise<Member> => {
      await loadCatalog(language);
      return unwrap(await api.PATCH('/admin/v1/session', { body: { language } })).member;
    },
    onSuccess: (member) => qc.setQueryData(SESSION_KEY, member),
  });
}
