import '../../styles/notifications.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { NewChannelScreen } from '../../features/notifications/components/ChannelEditScreen';

function NewChannel() {
  return (
    <RequireRole role="admin" doing="Adding notification channels">
      <NewChannelScreen />
    </RequireRole>
  );
}

export { NewChannel as Component };
