import { conflict } from '../../lib/errors.js';
import { handOver } from '../checks/hand-over.js';
import type { ServiceDeps } from '../deps.js';
import { getMonitor } from './get.js';

/** Runs the monitor's check now here, or hands the request to the process that schedules it. */
export async function checkMonitorNow(deps: ServiceDeps, id: number): Promise<void> {
  const monitor = await getMonitor(deps, id);
  if (monitor.paused) throw conflict('The monitor is paused; resume it to check it');
  if (monitor.type === 'push')
    throw conflict('A push monitor is checked by the pings its job sends; there is nothing to run');
  if (deps.trigger?.checkNow(id)) return;
  await handOver(deps, { kind: 'check', monitorId: id }, deps.clock.now());
}
