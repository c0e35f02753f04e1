import '../../styles/status-pages.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { StatusPageEditor } from '../../features/status-pages/components/StatusPageEditor';

function StatusPageNew() {
  return (
    <RequireRole role="editor" doing="Editing status pages">
      <StatusPageEditor page={null} />
    </RequireRole>
  );
}

export { StatusPageNew as Component };
