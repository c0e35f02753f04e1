import { uptimePercent } from '../../domain/percentiles.js';
import type { MonitorRecord } from '../../domain/monitor.js';
import type { ServiceDeps } from '../deps.js';
import { maintenanceNow } from '../maintenance/now.js';

export interface MonitorWithUptime {
  monitor: MonitorRecord;
  uptime24h: number | null;
  /** In an active maintenance window now. */
  maintenance: boolean;
}

export async function listMonitors(deps: ServiceDeps): Promise<MonitorWithUptime[]> {
  const now = deps.clock.now();
  const [monitors, uptime, inMaintenance] = await Promise.all([
    deps.repos.monitors.list(),
    deps.repos.monitors.uptime24h(now),
    maintenanceNow(deps),
  ]);
  const byId = new Map(uptime.map((u) => [u.monitorId, u]));
  return monitors.map((monitor) => {
    const u = byId.get(monitor.id);
    return {
      monitor,
      uptime24h: u ? uptimePercent(Number(u.up), Number(u.degraded), Number(u.checks)) : null,
      maintenance: inMaintenance(monitor.id),
    };
  });
}
