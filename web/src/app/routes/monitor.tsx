import '../../styles/incidents.css';
import '../../styles/account.css';
import '../../styles/notifications.css';
import '../../styles/slos.css';
import '../../styles/reports.css';
import { MonitorPolicyPanel } from '../../features/escalation/components/MonitorPolicyPanel';
import { MonitorIncidents } from '../../features/incidents/components/MonitorIncidents';
import { BadgePanel } from '../../features/monitors/components/BadgePanel';
import { CertificatePanel } from '../../features/monitors/components/CertificatePanel';
import { DomainRegistrationPanel } from '../../features/monitors/components/DomainRegistrationPanel';
import { ChecksTable } from '../../features/monitors/components/ChecksTable';
import { LastCheckPanel } from '../../features/monitors/components/LastCheckPanel';
import { LatencyPanel } from '../../features/monitors/components/LatencyPanel';
import { MonitorSettings } from '../../features/monitors/components/MonitorSettings';
import { MonitorHeader } from '../../features/monitors/components/MonitorHeader';
import { UptimeSummary } from '../../features/monitors/components/UptimeSummary';
import { displayOf } from '../../features/monitors/kinds/display';
import { MonitorDeliveries } from '../../features/notifications/components/MonitorDeliveries';
import { NoChannelNotice } from '../../features/notifications/components/NoChannelNotice';
import { SloCard } from '../../features/slos/components/SloCard';
import { CorrectionsPanel } from '../../features/reports/components/CorrectionsPanel';
import { LocationsPanel } from '../../features/monitor-locations/LocationsPanel';
import { WithMonitor } from './WithMonitor';

function MonitorRoute() {
  return (
    <WithMonitor rows={5}>
      {(monitor) => {
        const { Panel } = displayOf(monitor);
        return (
          <>
            <title>{`${monitor.name} · Pagewatch`}</title>
            <MonitorHeader monitor={monitor} />
            <NoChannelNotice monitor={monitor} />
            {Panel && <Panel monitor={monitor} />}
            <UptimeSummary monitorId={monitor.id} />
            <LastCheckPanel monitor={monitor} />
            <LocationsPanel monitorId={monitor.id} />
            <LatencyPanel monitorId={monitor.id} />
            <SloCard monitorId={monitor.id} />
            <CorrectionsPanel monitorId={monitor.id} />
            {monitor.lastDetails?.certificate && (
              <CertificatePanel certificate={monitor.lastDetails.certificate} />
            )}
            {monitor.lastDetails?.domain && (
              <DomainRegistrationPanel registration={monitor.lastDetails.domain} />
            )}
            <MonitorIncidents monitorId={monitor.id} />
            <MonitorPolicyPanel monitor={monitor} />
            <MonitorDeliveries monitorId={monitor.id} />
            <BadgePanel monitor={monitor} />
            <MonitorSettings monitor={monitor} />
            <ChecksTable monitorId={monitor.id} />
          </>
        );
      }}
    </WithMonitor>
  );
}

export { MonitorRoute as Component };
