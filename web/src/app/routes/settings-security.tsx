import '../../styles/instance-settings.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { SecurityScreen } from '../../features/settings/components/security/SecurityScreen';

function Security() {
  return (
    <RequireRole role="admin" doing="Changing the account security policy">
      <title>Security · Settings · Pagewatch</title>
      <SecurityScreen />
    </RequireRole>
  );
}

export { Security as Component };
