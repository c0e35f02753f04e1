import '../../styles/import.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { ImportScreen } from '../../features/settings/components/import/ImportScreen';

function Import() {
  return (
    <RequireRole role="admin" doing="Importing from another tool">
      <title>Import · Settings · Pagewatch</title>
      <h2 className="settings-title">Import</h2>
      <ImportScreen />
    </RequireRole>
  );
}

export { Import as Component };
