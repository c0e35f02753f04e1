import { useMe } from '../../auth/api/session';
import { atLeast } from '../../auth/roles';
import { DeliveriesTable } from './DeliveriesTable';

/** The monitor's recent alerts, for editors and up (viewers don't see where alerts go). */
export function MonitorDeliveries({ monitorId }: { monitorId: number }) {
  const me = useMe();
  if (!atLeast(me.role, 'editor')) return null;
  return (
    <section className="panel" aria-labelledby="monitor-deliveries">
      <div className="panel__head">
        <h2 id="monitor-deliveries" className="panel__title">
          Alerts sent
        </h2>
      </div>
      <DeliveriesTable
        filter={{ monitorId }}
        canRetry={atLeast(me.role, 'admin')}
        showMonitor={false}
        limit={10}
      />
    </section>
  );
}
