import '../../styles/maintenance.css';
import { MaintenanceScreen } from '../../features/maintenance/components/MaintenanceScreen';

function Maintenance() {
  return <MaintenanceScreen />;
}

export { Maintenance as Component };
