import type { ServiceDeps } from '../deps.js';

/** Whether each monitor is in an active maintenance window right now, for showing its status. */
export async function maintenanceNow(
  deps: Pick<ServiceDeps, 'maintenance' | 'clock'>,
): Promise<(monitorId: number) => boolean> {
  const index = deps.maintenance;
  if (!index) return () => false;
  await index.ready();
  const now = deps.clock.now();
  return (monitorId) => index.inMaintenance(monitorId, now);
}
