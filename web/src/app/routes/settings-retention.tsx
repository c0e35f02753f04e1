import '../../styles/instance-settings.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { RetentionScreen } from '../../features/settings/components/retention/RetentionScreen';

function Retention() {
  return (
    <RequireRole role="admin" doing="Changing the data retention">
      <title>Data retention · Settings · Pagewatch</title>
      <h2 className="settings-title">Data retention</h2>
      <RetentionScreen />
    </RequireRole>
  );
}

export { Retention as Component };
