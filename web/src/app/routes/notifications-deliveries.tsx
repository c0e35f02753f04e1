import '../../styles/account.css';
import '../../styles/notifications.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { DeliveriesScreen } from '../../features/notifications/components/DeliveriesScreen';

function Deliveries() {
  return (
    <RequireRole role="admin" doing="Reading the delivery log">
      <DeliveriesScreen />
    </RequireRole>
  );
}

export { Deliveries as Component };
