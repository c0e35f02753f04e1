import { RequireRole } from '../../features/auth/components/RequireRole';
import { AuditScreen } from '../../features/settings/components/audit/AuditScreen';

function Audit() {
  return (
    <RequireRole role="admin" doing="Reading the audit log">
      <title>Audit log · Settings · Pagewatch</title>
      <AuditScreen />
    </RequireRole>
  );
}

export { Audit as Component };
