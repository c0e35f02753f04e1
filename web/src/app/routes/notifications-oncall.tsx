import '../../styles/account.css';
import '../../styles/notifications.css';
import '../../styles/oncall.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { OnCallScreen } from '../../features/escalation/components/OnCallScreen';

function OnCall() {
  return (
    <RequireRole role="admin" doing="Managing on-call schedules">
      <OnCallScreen />
    </RequireRole>
  );
}

export { OnCall as Component };
