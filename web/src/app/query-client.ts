import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { authKeys, isAuthKey } from '../features/auth/api/keys';
import { markSignedOut } from '../features/auth/api/session';
import { isApiError } from '../lib/api';

/** Retries only what may pass on a second try: network blips and 5xx, never a 4xx. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) return false;
  if (!isApiError(error)) return false;
  return error.kind === 'network' || error.status >= 500;
}

const unauthenticated = (error: unknown) => isApiError(error) && error.kind === 'unauthenticated';
// The second-factor policy was turned on meanwhile (ADR 51): /auth/me says so, and the shell
// sends the person to enrol.
const enrolmentNeeded = (error: unknown) =>
  isApiError(error) && error.kind === 'second_factor_required';

export function createQueryClient(): QueryClient {
  // A 401 from any request means the session is gone (expired, signed out elsewhere, role
  // changed): forget it, and the signed-in shell sends the person to /login?next=….
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (unauthenticated(error) && !isAuthKey(query.queryKey)) markSignedOut(client, false);
        if (enrolmentNeeded(error)) void client.invalidateQueries({ queryKey: authKeys.me() });
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        // Sign-in calls answer 401 for a wrong password; that is not a lost session.
        if (unauthenticated(error) && mutation.meta?.signIn !== true) markSignedOut(client, false);
      },
    }),
    defaultOptions: {
      queries: { staleTime: 10_000, retry: shouldRetry, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
  return client;
}
