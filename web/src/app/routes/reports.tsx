import '../../styles/slos.css';
import '../../styles/reports.css';
import { ReportsScreen } from '../../features/reports/components/ReportsScreen';

function Reports() {
  return <ReportsScreen />;
}

export { Reports as Component };
