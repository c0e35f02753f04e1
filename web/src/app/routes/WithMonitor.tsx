import type { Monitor } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/Button';
import { ErrorNotice } from '../../components/ui/Notice';
import { LoadingBlock } from '../../components/ui/Skeleton';
import { monitorQuery } from '../../features/monitors/api/queries';
import { useMonitorId } from '../../features/monitors/useMonitorId';
import { isApiError } from '../../lib/api';
import { NotFound } from './not-found';

interface Props {
  /** Skeleton rows while loading, sized like the screen to come. */
  rows: number;
  /** The edit form turns this off so a refetch can't land under someone's typing. */
  refetchOnWindowFocus?: boolean;
  children: (monitor: Monitor) => ReactNode;
}

function Loaded({ id, rows, refetchOnWindowFocus = true, children }: Props & { id: number }) {
  const {
    data: monitor,
    error,
    isPending,
    refetch,
    isRefetching,
  } = useQuery({
    ...monitorQuery(id),
    refetchOnWindowFocus,
  });
  if (isPending) return <LoadingBlock label="Loading monitor…" rows={rows} />;
  if (isApiError(error) && error.kind === 'not_found') return <NotFound what="monitor" />;
  if (!monitor) {
    return (
      <ErrorNotice
        error={error}
        action={
          <Button size="sm" busy={isRefetching} onClick={() => void refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  return <>{children(monitor)}</>;
}

/** The monitor named by the route's `:id`, with its loading, not-found and error states. */
export function WithMonitor(props: Props) {
  const id = useMonitorId();
  if (id === null) return <NotFound what="monitor" />;
  // Keyed so switching monitors starts from a clean slate (window switcher, dialogs, forms).
  return <Loaded key={id} id={id} {...props} />;
}
