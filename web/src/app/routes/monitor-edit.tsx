import type { Monitor } from '@pagewatch/contract';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Icon } from '../../components/ui/Icon';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { ManagedByConfig } from '../../features/config/ManagedByConfig';
import { useUpdateMonitor } from '../../features/monitors/api/mutations';
import { fromMonitor } from '../../features/monitors/components/form/form-values';
import { MonitorForm } from '../../features/monitors/components/form/MonitorForm';
import { WithMonitor } from './WithMonitor';

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

function EditMonitor() {
  return (
    <RequireRole role="editor" doing="Editing monitors">
      <EditMonitorScreen />
    </RequireRole>
  );
}

function EditMonitorScreen() {
  return (
    <WithMonitor rows={6} refetchOnWindowFocus={false}>
      {(monitor) => (
        <>
          <title>{`Edit ${monitor.name} · Pagewatch`}</title>
          <Link to={`/monitors/${monitor.id}`} className="back-link">
            <Icon name="chevronLeft" />
            {monitor.name}
          </Link>
          <h1 className="page-title">Edit monitor</h1>
          <ManagedByConfig kind="monitors" id={monitor.id}>
            <EditForm monitor={monitor} />
          </ManagedByConfig>
        </>
      )}
    </WithMonitor>
  );
}

export { EditMonitor as Component };
