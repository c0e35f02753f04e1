import { usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { Navigate, Outlet, useLocation } from 'react-router';
import { authStatusQuery, meQuery } from '../api/queries';
import { BootError, Booting } from './Boot';

/** First gate: until the owner exists, every route leads to /setup. */
export function AuthRoot() {
  const status = useQuery(authStatusQuery());
  // Asked in parallel, so the signed-in shell does not wait for a second round trip.
  usePrefetchQuery(meQuery());
  const { pathname } = useLocation();
  if (status.isPending) return <Booting />;
  if (!status.data) {
    return (
      <BootError
        error={status.error}
        busy={status.isFetching}
        onRetry={() => void status.refetch()}
      />
    );
  }
  if (status.data.setupRequired && pathname !== '/setup') return <Navigate to="/setup" replace />;
  return <Outlet />;
}
