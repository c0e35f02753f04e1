import '../../styles/incidents.css';
import { IncidentsScreen } from '../../features/incidents/components/IncidentsScreen';

function Incidents() {
  return <IncidentsScreen />;
}

export { Incidents as Component };
