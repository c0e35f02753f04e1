import '../../styles/report-delivery.css';
import { ReportDeliveryScreen } from '../../features/report-schedules/components/ReportDeliveryScreen';

function ReportDelivery() {
  return <ReportDeliveryScreen />;
}

export { ReportDelivery as Component };
