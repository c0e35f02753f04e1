import type { AuthStatus, Session } from '@pagewatch/contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, isApiError, setCsrfToken } from '../../../lib/api';
import { authKeys } from './keys';
import { markSignedOut } from './session';

export const authStatusQuery = () =>
  queryOptions({
    queryKey: authKeys.status(),
    queryFn: ({ signal }) => api<AuthStatus>('/auth/status', { signal }),
    // Once the owner exists, setup never comes back.
    staleTime: (query) => (query.state.data?.setupRequired === false ? Infinity : 0),
    refetchOnWindowFocus: false,
  });

/**
 * Resolves once no mutation is in flight. So a mutation must never await a read of the session
 * (`authKeys.me()`): that read may be the one waiting here, for it.
 */
function mutationsSettled(client: QueryClient): Promise<void> {
  if (client.isMutating() === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = client.getMutationCache().subscribe(() => {
      if (client.isMutating() > 0) return;
      unsubscribe();
      resolve();
    });
  });
}

/** The session, or null when signed out: being signed out is a state here, not an error. */
export const meQuery = () =>
  queryOptions({
    queryKey: authKeys.me(),
    queryFn: async ({ signal, client }): Promise<Session | null> => {
      // Asked only when the status (always 200) says so: a 401 would be a console error on
      // /login, and on every signed-out visit. Shares the status request already in flight.
      // A session this app held and now finds gone (its event stream ended, a 401) ended on
      // the server: the sign-in screen says so.
      let status = await client.fetchQuery({ ...authStatusQuery(), staleTime: 0 });
      if (!status.signedIn && client.getQueryData(authKeys.me())) {
        // This browser's own request may have just replaced its session (two-factor turned
        // on, a new password): the old session's event stream ends before the answer with
        // the new cookie lands, and a status asked in between says signed out. Once no
        // request of ours is in flight, ask again before calling the session ended.
        await mutationsSettled(client);
        status = await client.fetchQuery({ ...authStatusQuery(), staleTime: 0 });
      }
      if (!status.signedIn) {
        markSignedOut(client, false);
        return null;
      }
      try {
        const session = await api<Session>('/auth/me', { signal });
        setCsrfToken(session.csrfToken);
        return session;
      } catch (error) {
        if (isApiError(error) && error.kind === 'unauthenticated') {
          markSignedOut(client, false);
          return null;
        }
        throw error;
      }
    },
    // Refreshed on focus once a minute old: notices a sign-out elsewhere or a role change.
    staleTime: 60_000,
  });
