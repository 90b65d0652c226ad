import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api.ts';
import { announce, doneWords } from '../lib/announce.ts';
import { SIGN_IN_MUTATION, sessionKeys } from '../lib/query-keys.ts';

/**
 * A 401 from any call means the session ended (expired, signed out elsewhere, membership removed):
 * mark the member signed out, and RequireSession shows the sign-in page, coming back after it.
 */
function sessionEnded(err: unknown): void {
  if (err instanceof ApiError && err.status === 401) queryClient.setQueryData(sessionKeys.all, null);
}

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (err, query) => query.queryKey[0] !== sessionKeys.all[0] && sessionEnded(err) }),
  mutationCache: new MutationCache({
    onError: (err, _vars, _ctx, mutation) => mutation.options.mutationKey?.[0] !== SIGN_IN_MUTATION[0] && sessionEnded(err),
    onSuccess: (_data, variables, _ctx, mutation) => {
      // signing in, out and resetting a password lead to another page, which says it itself
      if (mutation.options.mutationKey?.[0] === SIGN_IN_MUTATION[0]) return;
      const words = doneWords(mutation.options.meta, variables);
      if (words) announce(words);
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // A 4xx will not get better by asking again; a dropped connection may.
      retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
      refetchOnWindowFocus: true,
    },
  },
});
