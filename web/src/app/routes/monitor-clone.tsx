import { copyName, type Monitor } from '@pagewatch/contract';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Icon } from '../../components/ui/Icon';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { useCloneMonitor } from '../../features/monitors/api/bulk';
import { fromMonitor } from '../../features/monitors/components/form/form-values';
import { MonitorForm } from '../../features/monitors/components/form/MonitorForm';
import { WithMonitor } from './WithMonitor';

function CloneForm({ monitor }: { monitor: Monitor }) {
  const navigate = useNavigate();
  const clone = useCloneMonitor(monitor.id);
  // The copy starts as the source; stored secrets stay on the server and are copied there.
  const [initial] = useState(() => ({ ...fromMonitor(monitor), name: copyName(monitor.name) }));
  return (
    <MonitorForm
      mode="clone"
      initial={initial}
      mutation={clone}
      cancelTo={`/monitors/${monitor.id}`}
      onSaved={(m) => void navigate(`/monitors/${m.id}`)}
    />
  );
}

function CloneMonitorScreen() {
  return (
    <WithMonitor rows={6} refetchOnWindowFocus={false}>
      {(monitor) => (
        <>
          <title>{`Copy of ${monitor.name} · Pagewatch`}</title>
          <Link to={`/monitors/${monitor.id}`} className="back-link">
            <Icon name="chevronLeft" />
            {monitor.name}
          </Link>
          <h1 className="page-title">Clone monitor</h1>
          <p className="page-sub">
            A new monitor with the settings of “{monitor.name}”. Stored passwords, tokens and secret
            header values are copied by the server; leave them blank to keep them.
          </p>
          <CloneForm monitor={monitor} />
        </>
      )}
    </WithMonitor>
  );
}

function CloneMonitor() {
  return (
    <RequireRole role="editor" doing="Creating monitors">
      <CloneMonitorScreen />
    </RequireRole>
  );
}

export { CloneMonitor as Component };
