import type { MonitorRecord } from '../../domain/monitor.js';
import { uptime24h } from '../availability/last-day.js';
import type { ServiceDeps } from '../deps.js';
import { maintenanceNow } from '../maintenance/now.js';

export interface MonitorWithUptime {
  monitor: MonitorRecord;
  uptime24h: number | null;
  /** In an active maintenance window now. */
  maintenance: boolean;
}

export async function listMonitors(deps: ServiceDeps): Promise<MonitorWithUptime[]> {
  const [monitors, inMaintenance] = await Promise.all([
    deps.repos.monitors.list(),
    maintenanceNow(deps),
  ]);
  const uptime = await uptime24h(
    deps,
    monitors.map((m) => m.id),
  );
  return monitors.map((monitor) => {
    return {
      monitor,
      uptime24h: uptime.get(monitor.id) ?? null,
      maintenance: inMaintenance(monitor.id),
    };
  });
}
