import type { Monitor } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/Button';
import { Icon } from '../../components/ui/Icon';
import { ErrorNotice } from '../../components/ui/Notice';
import { LoadingBlock } from '../../components/ui/Skeleton';
import { useUpdateMonitor } from '../../features/monitors/api/mutations';
import { monitorQuery } from '../../features/monitors/api/queries';
import { fromMonitor } from '../../features/monitors/components/form/form-values';
import { MonitorForm } from '../../features/monitors/components/form/MonitorForm';
import { useMonitorId } from '../../features/monitors/useMonitorId';
import { isApiError } from '../../lib/api';
import { NotFound } from './not-found';

function EditForm({ monitor }: { monitor: Monitor }) {
  const navigate = useNavigate();
  const update = useUpdateMonitor(monitor.id);
  // Snapshot once: live status updates must not reset what the user is typing.
  const [initial] = useState(() => fromMonitor(monitor));
  return (
    <MonitorForm
      mode="edit"
      initial={initial}
      mutation={update}
      cancelTo={`/monitors/${monitor.id}`}
      onSaved={(m) => void navigate(`/monitors/${m.id}`)}
    />
  );
}

function EditScreen({ id }: { id: number }) {
  const {
    data: monitor,
    error,
    isPending,
    refetch,
    isRefetching,
  } = useQuery({
    ...monitorQuery(id),
    refetchOnWindowFocus: false,
  });
  if (isPending) return <LoadingBlock label="Loading monitor…" rows={6} />;
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
      <title>{`Edit ${monitor.name} · Pagewatch`}</title>
      <Link to={`/monitors/${id}`} className="back-link">
        <Icon name="chevronLeft" />
        {monitor.name}
      </Link>
      <h1 className="page-title">Edit monitor</h1>
      <EditForm monitor={monitor} />
    </>
  );
}

function EditMonitor() {
  const id = useMonitorId();
  if (id === null) return <NotFound what="monitor" />;
  return <EditScreen key={id} id={id} />;
}

export { EditMonitor as Component };
