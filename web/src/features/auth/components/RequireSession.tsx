import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { meQuery } from '../api/queries';
import { MeContext, signOutReason } from '../api/session';
import { loginPath } from '../next-path';
import { BootError, Booting } from './Boot';

/** Second gate: the app itself needs a session; without one, sign in and come back here. */
export function RequireSession({ children }: { children: ReactNode }) {
  const me = useQuery(meQuery());
  const location = useLocation();
  if (me.isPending) return <Booting />;
  if (me.data === null) {
    const why = signOutReason();
    return (
      <Navigate
        to={why === 'on_purpose' ? '/login' : loginPath(location)}
        state={why === 'session_ended' ? { sessionEnded: true } : undefined}
        replace
      />
    );
  }
  if (!me.data) {
    return <BootError error={me.error} busy={me.isFetching} onRetry={() => void me.refetch()} />;
  }
  // The second-factor policy (ADR 51): enrol first; the API refuses everything else meanwhile.
  if (me.data.user.secondFactorRequired) {
    const here = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/enrol?next=${encodeURIComponent(here)}`} replace />;
  }
  return <MeContext value={me.data.user}>{children}</MeContext>;
}
