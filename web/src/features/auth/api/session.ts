import type { AuthStatus, Me, Role, Session } from '@pagewatch/contract';
import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { setCsrfToken } from '../../../lib/api';
import { atLeast } from '../roles';
import { authKeys, isAuthKey } from './keys';

/**
 * The signed-in person, given by the shell's session gate. A context rather than a query read:
 * on sign-out a screen may re-render once more before the gate leads away, and must not find
 * nobody there.
 */
export const MeContext = createContext<Me | null>(null);

/** The signed-in person. Only for screens inside the signed-in shell, which waits for it. */
export function useMe(): Me {
  const me = useContext(MeContext);
  if (!me) throw new Error('useMe() outside the signed-in shell');
  return me;
}

/** Whether the signed-in person's role is at least `role` (SPEC §6). */
export function useCan(role: Role): boolean {
  return atLeast(useMe().role, role);
}

/**
 * Why the last session ended: by "Sign out" (the redirect to /login then carries no `next`), or
 * found out from a 401 (the login screen says so). Null before any session, and once signed in.
 */
export type SignOutReason = 'on_purpose' | 'session_ended' | null;
let reason: SignOutReason = null;
export const signOutReason = (): SignOutReason => reason;

/** Drops every query that belongs to a person (monitors, users, keys…); keeps auth state. */
export function forgetPersonalData(client: QueryClient): void {
  client.removeQueries({ predicate: (q) => !isAuthKey(q.queryKey) });
}

/** After setup or sign-in: the new session becomes the app's, with its CSRF token. */
export function storeSession(client: QueryClient, session: Session): void {
  reason = null;
  setCsrfToken(session.csrfToken);
  const previous = client.getQueryData<Session | null>(authKeys.me());
  if (previous?.user.id !== session.user.id) forgetPersonalData(client);
  client.setQueryData<AuthStatus>(authKeys.status(), {
    setupRequired: false,
    setupTokenRequired: false,
    signedIn: true,
    // Only the sign-in screens use it; they ask the server afresh.
    passwordResetByMail: false,
  });
  client.setQueryData(authKeys.me(), session);
}

/** The session ended: by choice (sign out) or found out by a 401 from any request. */
export function markSignedOut(client: QueryClient, onPurpose: boolean): void {
  const hadSession = Boolean(client.getQueryData<Session | null>(authKeys.me()));
  if (onPurpose) reason = 'on_purpose';
  else if (hadSession) reason = 'session_ended';
  setCsrfToken(null);
  client.setQueryData<AuthStatus>(authKeys.status(), (s) => s && { ...s, signedIn: false });
  if (client.getQueryData(authKeys.me()) !== null) client.setQueryData(authKeys.me(), null);
}
