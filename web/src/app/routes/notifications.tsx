import '../../styles/account.css';
import '../../styles/notifications.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { ChannelsScreen } from '../../features/notifications/components/ChannelsScreen';

function Notifications() {
  return (
    <RequireRole role="admin" doing="Managing notification channels">
      <ChannelsScreen />
    </RequireRole>
  );
}

export { Notifications as Component };
