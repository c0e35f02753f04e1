import '../../styles/backups.css';
import '../../styles/push.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { ExportScreen } from '../../features/settings/components/export/ExportScreen';

function Export() {
  return (
    <RequireRole role="admin" doing="Exporting the configuration">
      <title>Export · Settings · Pagewatch</title>
      <h2 className="settings-title">Export</h2>
      <ExportScreen />
    </RequireRole>
  );
}

export { Export as Component };
