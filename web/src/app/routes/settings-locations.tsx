import '../../styles/locations.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { LocationsScreen } from '../../features/settings/components/locations/LocationsScreen';

function Locations() {
  return (
    <RequireRole role="admin" doing="Managing locations">
      <title>Locations · Settings · Pagewatch</title>
      <LocationsScreen />
    </RequireRole>
  );
}

export { Locations as Component };
