import '../../styles/notifications.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { EditChannelScreen } from '../../features/notifications/components/ChannelEditScreen';

function EditChannel() {
  return (
    <RequireRole role="admin" doing="Changing notification channels">
      <EditChannelScreen />
    </RequireRole>
  );
}

export { EditChannel as Component };
