import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Icon } from '../../components/ui/Icon';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { useCreateMonitor } from '../../features/monitors/api/mutations';
import { emptyValues } from '../../features/monitors/components/form/form-values';
import { MonitorForm } from '../../features/monitors/components/form/MonitorForm';

function NewMonitorForm() {
  const navigate = useNavigate();
  const create = useCreateMonitor();
  const [initial] = useState(emptyValues);
  return (
    <>
      <title>New monitor · Pagewatch</title>
      <Link to="/" className="back-link">
        <Icon name="chevronLeft" />
        Monitors
      </Link>
      <h1 className="page-title">New monitor</h1>
      <p className="page-sub">
        Pagewatch checks the target on a schedule and records each phase: an HTTP request, a TCP
        connection with an optional exchange, a DNS lookup, a TLS certificate, or a whole page
        loaded in a real browser. A push monitor instead waits for your job to call in.
      </p>
      <MonitorForm
        mode="create"
        initial={initial}
        mutation={create}
        cancelTo="/"
        onSaved={(m) => void navigate(`/monitors/${m.id}`)}
      />
    </>
  );
}

function NewMonitor() {
  return (
    <RequireRole role="editor" doing="Creating monitors">
      <NewMonitorForm />
    </RequireRole>
  );
}

export { NewMonitor as Component };
