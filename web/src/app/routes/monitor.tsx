import { useQuery } from '@tanstack/react-query';
import { Button } from '../../components/ui/Button';
import { ErrorNotice } from '../../components/ui/Notice';
import { LoadingBlock } from '../../components/ui/Skeleton';
import { monitorQuery } from '../../features/monitors/api/queries';
import { ChecksTable } from '../../features/monitors/components/ChecksTable';
import { LatencyPanel } from '../../features/monitors/components/LatencyPanel';
import { MonitorSettings } from '../../features/monitors/components/MonitorSettings';
import { MonitorHeader } from '../../features/monitors/components/MonitorHeader';
import { UptimeSummary } from '../../features/monitors/components/UptimeSummary';
import { useMonitorId } from '../../features/monitors/useMonitorId';
import { isApiError } from '../../lib/api';
import { NotFound } from './not-found';

function MonitorScreen({ id }: { id: number }) {
  const { data: monitor, error, isPending, refetch, isRefetching } = useQuery(monitorQuery(id));
  if (isPending) return <LoadingBlock label="Loading monitor…" rows={5} />;
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
  return (
    <>
      <title>{`${monitor.name} · Pagewatch`}</title>
      <MonitorHeader monitor={monitor} />
      <UptimeSummary monitorId={id} />
      <LatencyPanel monitorId={id} />
      <MonitorSettings monitor={monitor} />
      <ChecksTable monitorId={id} />
    </>
  );
}

function MonitorRoute() {
  const id = useMonitorId();
  if (id === null) return <NotFound what="monitor" />;
  // Keyed so switching monitors starts from a clean slate (window switcher, dialogs).
  return <MonitorScreen key={id} id={id} />;
}

export { MonitorRoute as Component };
