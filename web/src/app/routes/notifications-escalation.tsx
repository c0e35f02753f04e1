import '../../styles/account.css';
import '../../styles/notifications.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { PoliciesScreen } from '../../features/escalation/components/PoliciesScreen';

function Escalation() {
  return (
    <RequireRole role="admin" doing="Managing escalation policies">
      <PoliciesScreen />
    </RequireRole>
  );
}

export { Escalation as Component };
