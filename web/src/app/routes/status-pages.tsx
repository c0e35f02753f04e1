import '../../styles/status-pages.css';
import { StatusPagesScreen } from '../../features/status-pages/components/StatusPagesScreen';

function StatusPages() {
  return <StatusPagesScreen />;
}

export { StatusPages as Component };
