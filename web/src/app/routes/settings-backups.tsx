import '../../styles/backups.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { BackupsScreen } from '../../features/settings/components/backups/BackupsScreen';

function Backups() {
  return (
    <RequireRole role="admin" doing="Managing backups">
      <title>Backups · Settings · Pagewatch</title>
      <h2 className="settings-title">Backups</h2>
      <BackupsScreen />
    </RequireRole>
  );
}

export { Backups as Component };
