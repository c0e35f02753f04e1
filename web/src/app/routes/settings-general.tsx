import '../../styles/instance-settings.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { GeneralScreen } from '../../features/settings/components/general/GeneralScreen';

function General() {
  return (
    <RequireRole role="admin" doing="Changing the instance settings">
      <title>General · Settings · Pagewatch</title>
      <h2 className="settings-title">General</h2>
      <GeneralScreen />
    </RequireRole>
  );
}

export { General as Component };
